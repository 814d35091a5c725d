import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/shared';

const root = new URL('../..', import.meta.url).pathname;

/**
 * `npx quire ...` as a person types it, from the project folder: npm reads the project's .npmrc and
 * package.json on the way, and must not print a warning the user did not cause (an unknown config key
 * in .npmrc was one, on every call).
 */
describe('a quiet command line', () => {
  it('npx quire library list prints no npm warning', async () => {
    const dataDir = await tempDir('quire-quiet-cli-');
    try {
      const run = spawnSync('npx', ['quire', 'library', 'list', '--data-dir', dataDir.path], {
        cwd: root,
        encoding: 'utf8',
        env: { ...process.env, LANCEDB_LOG: 'error' },
        shell: process.platform === 'win32',
        timeout: 120_000,
      });
      expect(run.status, run.stderr).toBe(0);
      expect(run.stdout).toContain('The library is empty');
      const npmLines = `${run.stdout}\n${run.stderr}`
        .split('\n')
        .filter((line) => /^npm (warn|WARN|ERR)/.test(line));
      expect(npmLines).toEqual([]);
    } finally {
      await dataDir.cleanup();
    }
  }, 150_000);
});
