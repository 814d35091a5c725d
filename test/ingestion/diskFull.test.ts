/**
 * A full disk stops indexing and says so; what was written stays readable and nothing half-written
 * stays behind; indexing goes on once there is room. Runs the real CLI and the real core on a small
 * tmpfs (needs root and `mount`), then grows the tmpfs to stand for the user freeing space.
 */
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createCore } from '../../src/core/createCore';
import { tempDir } from '../helpers/shared';

const cli = join(import.meta.dirname, '..', '..', 'packages', 'cli', 'quire.mjs');

function mountTmpfs(dir: string, megabytes: number, remount = false): boolean {
  const options = `${remount ? 'remount,' : ''}size=${megabytes}m`;
  const args = remount ? ['-o', options, dir] : ['-t', 'tmpfs', '-o', options, 'tmpfs', dir];
  return spawnSync('mount', args, { stdio: 'ignore' }).status === 0;
}

function unmount(dir: string): void {
  // LanceDB may still hold a closed table's files until it is collected: detach the mount then.
  if (spawnSync('umount', [dir], { stdio: 'ignore' }).status !== 0)
    spawnSync('umount', ['-l', dir], { stdio: 'ignore' });
}

/** Whether this machine lets the test mount a tmpfs (root on Linux). */
const canMount = (() => {
  const probe = join(process.env.TMPDIR ?? '/tmp', `quire-mount-probe-${process.pid}`);
  spawnSync('mkdir', ['-p', probe]);
  const mounted = process.platform === 'linux' && mountTmpfs(probe, 1);
  if (mounted) unmount(probe);
  spawnSync('rmdir', [probe]);
  return mounted;
})();

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A folder of text files that do not fit a small disk once indexed, each with a word to find. */
async function bigTextFolder(files: number): Promise<string> {
  const folder = await tempDir('quire-disk-folder-');
  cleanups.push(folder.cleanup);
  for (let i = 1; i <= files; i++) {
    const noise = randomBytes(1_500_000)
      .toString('base64')
      .replace(/.{100}/g, '$&\n');
    await writeFile(join(folder.path, `f${i}.txt`), `zephyr pump file ${i}\n${noise}`);
  }
  return folder.path;
}

async function smallDisk(megabytes: number): Promise<string> {
  const disk = await tempDir('quire-disk-');
  if (!mountTmpfs(disk.path, megabytes)) throw new Error('could not mount a tmpfs');
  cleanups.push(async () => {
    unmount(disk.path);
    await disk.cleanup();
  });
  return disk.path;
}

function quire(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cli, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, LANCEDB_LOG: 'error' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Temp files of atomic writes (`library.json.<hex>.tmp`) anywhere under `dir`. */
async function leftTempFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true });
  return entries.filter((name) => /\.[0-9a-f]{12}\.tmp$/.test(name));
}

async function waitFor(what: string, probe: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe.skipIf(!canMount)('a full disk', () => {
  it(
    'quire index exits 1 saying how full; list and search answer; it goes on after space is freed',
    { timeout: 900_000 },
    async () => {
      const folder = await bigTextFolder(8);
      const disk = await smallDisk(16);
      const data = join(disk, 'data');

      const full = await quire(['index', folder, '--no-images', '--no-ocr', '--data-dir', data]);
      expect(full.code, full.stderr).toBe(1);
      expect(full.stderr).toMatch(/The disk is full: \d+ MB free, \d+ MB needed/);
      expect(full.stderr).not.toMatch(/LanceError|GenericFailure/);
      expect(await leftTempFiles(data)).toEqual([]);

      // Reading needs no room: the folder is listed and a search answers.
      const listed = await quire(['library', 'list', '--data-dir', data]);
      expect(listed.code, listed.stderr).toBe(0);
      expect(listed.stdout).toContain('f8.txt');
      const searched = await quire(['search', 'zephyr', '--data-dir', data]);
      expect(searched.code, searched.stderr).toBe(0);
      expect(await leftTempFiles(data)).toEqual([]);

      // The user frees space: indexing again finishes what was left.
      expect(mountTmpfs(disk, 2048, true)).toBe(true);
      const done = await quire(['index', folder, '--no-images', '--no-ocr', '--data-dir', data, '--json']);
      expect(done.code, done.stderr).toBe(0);
      const summary = JSON.parse(done.stdout) as { states: Record<string, number> };
      expect(summary.states).toEqual({ indexed: 8 });
      const found = await quire(['search', 'zephyr', '--k', '20', '--json', '--data-dir', data]);
      const hits = JSON.parse(found.stdout) as { path: string }[];
      expect(new Set(hits.map((hit) => hit.path)).size).toBe(8);
    },
  );

  it(
    'the app stops its queue, shows why, and goes on by itself once there is room',
    { timeout: 900_000 },
    async () => {
      const folder = await bigTextFolder(8);
      const disk = await smallDisk(16);
      const data = join(disk, 'data');
      await mkdir(data);
      const core = createCore({ dataDir: data, renderImages: false, ocr: false, findModels: false });
      cleanups.push(() => core.dispose());
      await core.start();
      await core.library.addFolder(folder);

      await waitFor('indexing to stop', () => core.ingestion.stopped() !== null, 600_000);
      expect(core.ingestion.stopped()?.code).toBe('disk_full');
      expect(core.ingestion.progress()).toMatchObject({
        paused: true,
        stopped: expect.stringMatching(/^The disk is full: \d+ MB free/),
      });
      // Waiting files are queued, not marked indexed or failed.
      const states = new Set(core.library.snapshot().documents.map((doc) => doc.state));
      expect(
        [...states].every((state) => state === 'indexed' || state === 'queued' || state === 'indexing'),
      ).toBe(true);
      expect(core.library.snapshot().documents.some((doc) => doc.state === 'queued')).toBe(true);

      expect(mountTmpfs(disk, 2048, true)).toBe(true);
      await waitFor(
        'every file to be indexed',
        () => core.library.snapshot().documents.every((doc) => doc.state === 'indexed'),
        600_000,
      );
      expect(core.ingestion.stopped()).toBeNull();
      expect(core.ingestion.progress().stopped).toBeNull();
    },
  );
});
if (!canMount) console.log('skipped: a full disk needs a tmpfs, and mount is not allowed here');
