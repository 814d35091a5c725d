import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../src/core/createCore';
import { APP_WRITER, WRITER_LOCK_FILE } from '../../src/core/location/dataDirWriter';
import type { SearchResult } from '../../src/shared/domain/search';
import type { LeaseHolder } from '../../src/core/location/writerLease';
import { tempDir } from '../helpers/shared';
import { untilIndexed } from '../helpers/untilIndexed';

/*
 * The command line beside a writer of the same data folder: a real core as the app runs it (watching,
 * indexing) and real `quire` processes. Commands that read answer without writing anything; a second
 * writer is refused, naming the first; a writer killed with SIGKILL holds up the next only until its
 * lock goes stale.
 */

const cli = resolve('packages/cli/quire.mjs');
/** Enough notes that the app is still reading them while the readers run. */
const NOTES = 240;
let dir: { path: string; cleanup: () => Promise<void> } | undefined;
let writer: Core | undefined;
const children: ChildProcess[] = [];
afterEach(async () => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  await writer?.dispose();
  writer = undefined;
  await dir?.cleanup();
  dir = undefined;
});

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function quire(...args: string[]): Promise<Run> {
  const child = spawn(process.execPath, [cli, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, QUIRE_SERVERS: '', LANCEDB_LOG: 'error' },
  });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((done) => child.on('close', (code) => done({ code, stdout, stderr })));
}

async function folderWith(name: string, files: Record<string, string>): Promise<string> {
  const folder = join(dir!.path, name);
  await mkdir(folder);
  for (const [file, text] of Object.entries(files)) await writeFile(join(folder, file), text);
  return folder;
}

/** A word BM25 keeps whole and no other file holds. */
function wordOf(i: number): string {
  return `quill${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))}zed`;
}

async function appCore(dataDir: string): Promise<Core> {
  const core = createCore({
    dataDir,
    writerName: APP_WRITER,
    watch: true,
    findModels: false,
    detectServers: false,
    embedInBackground: false,
    ocr: false,
    renderImages: false,
    workers: 1,
  });
  await core.start();
  return core;
}

async function holder(dataDir: string): Promise<LeaseHolder | null> {
  return readFile(join(dataDir, WRITER_LOCK_FILE), 'utf8').then(
    (text) => JSON.parse(text) as LeaseHolder,
    () => null,
  );
}

describe('the command line beside a writer of the same data folder', () => {
  it('search and library list read while the app indexes a folder, and remove none of its content', async () => {
    dir = await tempDir('quire-beside-writer-');
    const dataDir = join(dir.path, 'data');
    const pumps = await folderWith('pumps', {
      'pump.txt': "The Zephyr-9 pump's maximum pressure is 42 bar.\n",
    });
    writer = await appCore(dataDir);
    await writer.library.addFolder(pumps);
    await untilIndexed(writer);

    const notes: Record<string, string> = {};
    for (let i = 0; i < NOTES; i++)
      notes[`note${i}.txt`] = `Note ${i} of the ledger records the word ${wordOf(i)} once.\n`;
    const ledger = await folderWith('ledger', notes);
    await writer.library.addFolder(ledger);
    const saved = await readFile(join(dataDir, 'library.json'), 'utf8');
    // Started while the app is still reading the ledger's files.
    const [search, list] = await Promise.all([
      quire('search', 'Zephyr', '--mode', 'bm25', '--json', '--data-dir', dataDir),
      quire('library', 'list', '--data-dir', dataDir),
    ]);
    // The readers did run while the app was still indexing the ledger.
    const indexedMeanwhile = writer.library
      .snapshot()
      .documents.filter((doc) => doc.path.startsWith(ledger) && doc.state === 'indexed').length;
    expect(indexedMeanwhile).toBeLessThan(NOTES);
    expect(search.code, search.stderr).toBe(0);
    expect((JSON.parse(search.stdout) as Array<{ path: string }>).map((hit) => hit.path)).toContain(
      join(pumps, 'pump.txt'),
    );
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toContain(pumps);
    expect(list.stdout).toContain(ledger);
    // Files the app has not indexed yet are listed too, as the app lists them.
    expect(list.stdout).toContain(`note${NOTES - 1}.txt`);
    // The readers wrote nothing of the library and left the writer's lock as it was.
    expect(await readFile(join(dataDir, 'library.json'), 'utf8')).toBe(saved);
    expect((await holder(dataDir))?.pid).toBe(process.pid);

    await untilIndexed(writer);
    const documents = writer.library.snapshot().documents.filter((doc) => doc.path.startsWith(ledger));
    expect(documents).toHaveLength(NOTES);
    // Every note's content is still there: none was tidied away as unreferenced while being written.
    for (let i = 0; i < NOTES; i++) {
      const found = await writer.dispatch('search.retrieve', { query: wordOf(i), mode: 'bm25', k: 3 });
      expect(found.ok && (found.value as SearchResult).hits.map((hit) => hit.path)).toContain(
        join(ledger, `note${i}.txt`),
      );
    }
  }, 300_000);

  it('refuses a second writer (quire index) with who holds the library, and changes nothing', async () => {
    dir = await tempDir('quire-second-writer-');
    const dataDir = join(dir.path, 'data');
    const pumps = await folderWith('pumps', {
      'pump.txt': "The Zephyr-9 pump's maximum pressure is 42 bar.\n",
    });
    const jams = await folderWith('jams', {
      'quince.txt': 'Quince marmalade sets at 104 degrees Celsius.\n',
    });
    writer = await appCore(dataDir);
    await writer.library.addFolder(pumps);
    await untilIndexed(writer);
    const saved = await readFile(join(dataDir, 'library.json'), 'utf8');

    const index = await quire('index', jams, '--data-dir', dataDir);
    expect(index.code).toBe(1);
    expect(index.stderr.trim().split('\n')).toHaveLength(1);
    expect(index.stderr).toContain(`The Quire app has this library open (pid ${process.pid})`);
    expect(index.stderr).toContain('15 s');
    const add = await quire('library', 'add', jams, '--data-dir', dataDir);
    expect(add.code).toBe(1);
    expect(add.stderr).toContain(`The Quire app has this library open (pid ${process.pid})`);

    expect(await readFile(join(dataDir, 'library.json'), 'utf8')).toBe(saved);
    expect((await holder(dataDir))?.pid).toBe(process.pid);
    const found = await writer.dispatch('search.retrieve', { query: 'marmalade', mode: 'bm25', k: 3 });
    expect(found.ok && (found.value as SearchResult).hits).toEqual([]);
    expect(writer.library.snapshot().roots.map((root) => root.path)).toEqual([pumps]);

    // Once the app has closed, the same command writes.
    await writer.dispose();
    writer = undefined;
    expect(await holder(dataDir)).toBeNull();
    const after = await quire('index', jams, '--data-dir', dataDir);
    expect(after.code, after.stderr).toBe(0);
  }, 300_000);

  it('lets the next writer in once the lock of a writer killed with SIGKILL has gone stale', async () => {
    dir = await tempDir('quire-killed-writer-');
    const dataDir = join(dir.path, 'data');
    const jams = await folderWith('jams', {
      'quince.txt': 'Quince marmalade sets at 104 degrees Celsius.\n',
    });
    // A page of its own stands in for the UI build: serve runs as it does for a user until killed.
    const ui = await folderWith('ui', { 'index.html': '<html><body></body></html>' });
    const serve = spawn(process.execPath, [cli, 'serve', '--port', '0', '--data-dir', dataDir], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, QUIRE_SERVERS: '', LANCEDB_LOG: 'error', QUIRE_RENDERER_DIR: ui },
    });
    children.push(serve);
    let output = '';
    serve.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    serve.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    while (!output.includes('Open http')) {
      expect(serve.exitCode, output).toBeNull();
      await sleep(200);
    }
    // quire.mjs may run the CLI as a child of its own: the lock names whichever process writes.
    const lock = await holder(dataDir);
    expect(lock?.name).toBe('`quire serve`');
    if (!lock) return;
    process.kill(lock.pid, 'SIGKILL');
    if (lock.pid !== serve.pid) serve.kill('SIGKILL');

    // The lock was renewed moments ago, but its process is gone: the next writer waits it out (at most
    // the 15 s stale time) and indexes, instead of being refused.
    const next = await quire('index', jams, '--data-dir', dataDir);
    expect(next.code, next.stderr).toBe(0);
    expect(next.stdout).toContain('Indexed 1 of 1 files');
    expect(await holder(dataDir)).toBeNull();
  }, 300_000);
});
