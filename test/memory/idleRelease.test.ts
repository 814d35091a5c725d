import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { platform } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { ALLOCATOR_ENV } from '../../src/core/common/allocator';
import { forkChild, type ChildHandle } from '../../src/core/common/entryPoints';
import { releaseMemoryWhenIdle, type IdleRelease } from '../../src/core/memory/idleRelease';
import { tempDir } from '../helpers/shared';

const MB = 1024 * 1024;
const run = promisify(execFile);
const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A releaser driven by hand: `resident` is what the process measures, `busy` what the pool says. */
function driven(state: { resident: number; busy: boolean; available?: boolean }) {
  const releases: number[] = [];
  const idle: IdleRelease = releaseMemoryWhenIdle({
    busy: () => state.busy,
    intervalMs: 3_600_000,
    growthBytes: 32 * MB,
    residentBytes: () => state.resident,
    release: () => {
      releases.push(state.resident);
      state.resident -= 100 * MB;
      return state.available ?? true;
    },
  });
  cleanups.push(() => idle.dispose());
  return { idle, releases };
}

describe('giving freed memory back when idle', () => {
  it('waits while the pool works, releases once it is idle, and not again until the process grows', () => {
    const state = { resident: 300 * MB, busy: true };
    const { idle, releases } = driven(state);
    state.resident = 900 * MB;
    expect(idle.check()).toBe(false);
    state.busy = false;
    expect(idle.check()).toBe(true);
    expect(releases).toEqual([900 * MB]);
    expect(idle.check()).toBe(false);
    state.resident += 20 * MB;
    expect(idle.check()).toBe(false);
    state.resident += 20 * MB;
    expect(idle.check()).toBe(true);
    expect(releases).toHaveLength(2);
  });

  it('measures growth from the lowest point, so memory the process gave back itself is not counted', () => {
    const state = { resident: 500 * MB, busy: false };
    const { idle, releases } = driven(state);
    state.resident = 350 * MB;
    expect(idle.check()).toBe(false);
    state.resident = 370 * MB;
    expect(idle.check()).toBe(false);
    expect(releases).toEqual([]);
  });

  it('stops looking on a system that offers no way to release', () => {
    const state = { resident: 300 * MB, busy: false, available: false };
    const { idle, releases } = driven(state);
    state.resident = 900 * MB;
    expect(idle.check()).toBe(false);
    state.resident = 1200 * MB;
    expect(idle.check()).toBe(false);
    expect(releases).toHaveLength(1);
  });
});

describe("V8's heap", () => {
  it('gives back its grown young generation and spare pages when idle, with no --expose-gc at launch', async () => {
    // Short-lived objects grow the young generation to its full size; the idle release (its default
    // release, as Quire runs it) must shrink it and return the pages, without leaving `gc` exposed.
    const script = `
      const { getHeapSpaceStatistics } = await import('node:v8');
      const { releaseMemoryWhenIdle } = await import(${JSON.stringify(new URL('../../src/core/memory/idleRelease.ts', import.meta.url).href)});
      const young = () => getHeapSpaceStatistics().find((space) => space.space_name === 'new_space').physical_space_size;
      let resident = 0;
      const idle = releaseMemoryWhenIdle({ busy: () => false, intervalMs: 3_600_000, residentBytes: () => resident });
      let kept = [];
      for (let i = 0; i < 3e6; i++) { kept.push({ i, list: [i] }); if (kept.length > 2e5) kept = []; }
      kept = [];
      const before = { young: young(), rss: process.memoryUsage.rss() };
      resident = 1e9;
      const released = idle.check();
      idle.dispose();
      const after = { young: young(), rss: process.memoryUsage.rss() };
      console.log(JSON.stringify({ released, before, after, gcExposed: typeof globalThis.gc }));
    `;
    const { stdout } = await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      timeout: 60_000,
    });
    const seen = JSON.parse(stdout.trim().split('\n').at(-1)!) as {
      released: boolean;
      before: { young: number; rss: number };
      after: { young: number; rss: number };
      gcExposed: string;
    };
    expect(seen.released).toBe(true);
    expect(seen.before.young).toBeGreaterThan(16 * MB);
    expect(seen.after.young).toBeLessThan(4 * MB);
    expect(seen.before.rss - seen.after.rss).toBeGreaterThan(16 * MB);
    expect(seen.gcExposed).toBe('undefined');
  }, 60_000);
});

describe.runIf(platform() === 'linux')('the allocator on Linux', () => {
  it('hands back memory freed between blocks still in use, which the allocator otherwise keeps', async () => {
    // 256 MB in 64 KB buffers (below the mmap threshold, so inside the allocator's heap), every other
    // one freed: the freed blocks sit between live ones, and only malloc_trim returns their pages.
    const script = `
      const { returnFreedMemory } = await import(${JSON.stringify(new URL('../../src/core/common/allocator.ts', import.meta.url).href)});
      const rss = () => process.memoryUsage.rss();
      let blocks = Array.from({ length: 4096 }, () => Buffer.allocUnsafeSlow(64 * 1024).fill(1));
      blocks = blocks.filter((_, i) => i % 2 === 0);
      globalThis.gc(); globalThis.gc();
      await new Promise((resolve) => setTimeout(resolve, 200));
      globalThis.gc();
      const before = rss();
      const released = returnFreedMemory();
      console.log(JSON.stringify({ released, before, after: rss(), kept: blocks.length }));
    `;
    const { stdout } = await run(
      process.execPath,
      ['--expose-gc', '--import', 'tsx', '--input-type=module', '-e', script],
      { timeout: 60_000 },
    );
    const { released, before, after, kept } = JSON.parse(stdout.trim().split('\n').at(-1)!) as {
      released: boolean;
      before: number;
      after: number;
      kept: number;
    };
    expect(released).toBe(true);
    expect(kept).toBe(2048);
    expect(before - after).toBeGreaterThan(64 * MB);
  }, 60_000);

  it("starts Quire's child processes with the same allocator settings", async () => {
    const dir = await tempDir('quire-allocator-child-');
    cleanups.push(() => dir.cleanup());
    const entry = join(dir.path, 'reportEnv.child.ts');
    await writeFile(
      entry,
      `process.send!({ mmap: process.env.MALLOC_MMAP_THRESHOLD_, trim: process.env.MALLOC_TRIM_THRESHOLD_ });\n`,
    );
    const child: ChildHandle = forkChild(import.meta.url, entry);
    cleanups.push(() => child.kill('SIGKILL'));
    const seen = await new Promise((resolve) => child.on('message', resolve));
    expect(seen).toEqual({
      mmap: ALLOCATOR_ENV.MALLOC_MMAP_THRESHOLD_,
      trim: ALLOCATOR_ENV.MALLOC_TRIM_THRESHOLD_,
    });
  }, 60_000);
});
