import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const guards = join(import.meta.dirname, '..', '..', 'src', 'core', 'common', 'processGuards.ts');

describe('guardProcess', () => {
  it('logs a stray rejection and an uncaught exception with what they were, and the process goes on', () => {
    const script = `
      const { guardProcess } = await import(${JSON.stringify(guards)});
      guardProcess({ label: 'test server' });
      Promise.reject(new Error('nobody awaited this'));
      setTimeout(() => { throw new TypeError('thrown from a timer'); }, 10);
      setTimeout(() => console.log('still serving'), 100);
    `;
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('still serving');
    expect(run.stderr).toMatch(/test server: a promise was rejected.*Error: nobody awaited this/);
    expect(run.stderr).toMatch(/test server: an uncaught exception.*TypeError: thrown from a timer/);
  });
});
