import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/shared';

const root = join(import.meta.dirname, '..', '..');
const built = join(root, 'out', 'cli', 'quire.js');

/** Runs the built CLI itself (out/cli/quire.js), not the source through tsx. */
function quire(...args: string[]) {
  return spawnSync(process.execPath, [built, ...args], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, LANCEDB_LOG: 'error' },
    timeout: 60_000,
  });
}

describe('the built command line', () => {
  beforeAll(() => {
    // `quire` rebuilds out/cli when a source changed since the last build, so this leaves it current.
    const run = spawnSync(process.execPath, [join(root, 'packages', 'cli', 'quire.mjs'), '--version'], {
      cwd: root,
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(run.status, run.stderr).toBe(0);
    expect(existsSync(built)).toBe(true);
  }, 150_000);

  it('emits every worker and child entry of the core beside the bundle that starts it', () => {
    const entries = readdirSync(join(root, 'src', 'core'), { recursive: true, encoding: 'utf8' })
      .filter((path) => /\.(worker|child)\.ts$/.test(path))
      .map((path) => `${basename(path, '.ts')}.js`);
    expect(entries.length).toBeGreaterThan(0);
    for (const entry of entries) expect(existsSync(join(root, 'out', 'cli', entry)), entry).toBe(true);
  });

  it('--version prints the version in package.json', () => {
    const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
    const run = quire('--version');
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toBe(`${version}\n`);
  });

  it('stops quietly when the reader of its output goes away (quire … | head)', async () => {
    const child = spawn(process.execPath, [built, '--help'], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // Closing our end before the child writes makes its write fail with EPIPE.
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(stderr).not.toContain('EPIPE');
    expect(code).toBe(0);
  });

  it('--help lists the commands and every exit code', () => {
    const run = quire('--help');
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^Usage: quire <command>/);
    for (const code of ['0 done', '1 failed', '2 (ask) declined', '64 usage error']) {
      expect(run.stdout.replace(/\s+/g, ' ')).toContain(code);
    }
  });

  it('an unknown command, an unknown option and a bad value are usage errors: exit 64', () => {
    const unknownCommand = quire('frobnicate');
    expect(unknownCommand.status).toBe(64);
    expect(unknownCommand.stderr).toContain('Unknown command "frobnicate"');

    const unknownOption = quire('search', 'tax', '--frobnicate');
    expect(unknownOption.status).toBe(64);
    expect(unknownOption.stderr).toContain("Unknown option '--frobnicate'");

    const badValue = quire('search', 'tax', '--k', '0');
    expect(badValue.status).toBe(64);
    expect(badValue.stderr).toContain('--k must be between 1 and 100');
  });

  it('ask with an empty question and with a blank one gives the same usage error', async () => {
    const data = await tempDir('quire-built-cli-');
    try {
      const empty = quire('ask', '', '--data-dir', data.path);
      const blank = quire('ask', '   ', '--data-dir', data.path);
      expect(empty.status).toBe(64);
      expect(blank.status).toBe(64);
      expect(empty.stderr).toContain('Usage: quire ask');
      expect(blank.stderr).toBe(empty.stderr);
      expect(blank.stdout).toBe(empty.stdout);
    } finally {
      await data.cleanup();
    }
  });

  it('a command that cannot open a shared library refuses --library instead of reading the local one', async () => {
    const data = await tempDir('quire-built-cli-');
    try {
      for (const args of [
        ['library', 'list'],
        ['collections', 'list'],
        ['models', 'status'],
      ]) {
        const run = quire(...args, '--library', 's3://bucket/prefix', '--data-dir', data.path);
        expect(run.status, run.stderr).toBe(64);
        expect(run.stderr).toContain(`quire ${args[0]} works on this computer's library`);
      }
    } finally {
      await data.cleanup();
    }
  });
});
