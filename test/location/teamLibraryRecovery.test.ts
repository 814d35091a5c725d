import { spawn, spawnSync } from 'node:child_process';
import { copyFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { connect } from '@lancedb/lancedb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChunkSearchResult, SearchResult } from '../../src/shared/domain/search';
import { createCore } from '../../src/core/createCore';
import { CommitTable } from '../../src/core/location/commitTable';
import { parseLibraryLocation, type LibraryLocation } from '../../src/core/location/libraryLocation';
import { ObjectStore } from '../../src/core/location/objectStore';
import { openSharedLibrary } from '../../src/core/location/sharedLibrary';
import { startObjectStore, type RunningObjectStore } from '../../scripts/objectStoreServer';
import { corpusDir, hasCorpus, tempDir } from '../helpers/shared';

/*
 * A team library's writer interrupted or doubled, on the local object store: readers keep searching
 * (and never write) while the writer's chunks are not folded into the full-text index, the next
 * writer folds them even with nothing new to add, and a second writer with this host name in another
 * PID namespace is refused.
 */

const keys = { accessKeyId: 'quiretest', secretAccessKey: 'quire-test-secret-value' };
const cli = join(import.meta.dirname, '..', '..', 'packages', 'cli', 'quire.mjs');
const UNMERGED_NOTE = /not in its keyword index yet/;
const cleanups: Array<() => Promise<void>> = [];
let store: RunningObjectStore;
let location: LibraryLocation;

process.env.AWS_ACCESS_KEY_ID = keys.accessKeyId;
process.env.AWS_SECRET_ACCESS_KEY = keys.secretAccessKey;
process.env.LANCEDB_LOG = 'error';

/** Whether this machine lets us start a process in a PID namespace of its own (root on Linux). */
const pidNamespaces =
  process.platform === 'linux' &&
  spawnSync('unshare', ['--pid', '--fork', '--mount-proc', 'true'], { stdio: 'ignore' }).status === 0;

beforeAll(async () => {
  if (!hasCorpus) return;
  const dir = await tempDir();
  cleanups.push(dir.cleanup);
  store = await startObjectStore({ ...keys, directory: dir.path });
  process.env.DYNAMODB_ENDPOINT = store.dynamodbEndpoint;
  location = parseLibraryLocation({ uri: store.library, endpoint: store.endpoint });
}, 60_000);

afterAll(async () => {
  await store?.stop();
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function dataDir(): Promise<string> {
  const dir = await tempDir();
  cleanups.push(dir.cleanup);
  return dir.path;
}

async function folderWith(...files: string[]): Promise<string> {
  const dir = await dataDir();
  for (const file of files) await copyFile(join(corpusDir, file), join(dir, file.split('/').pop()!));
  return dir;
}

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs the CLI (optionally behind another command, e.g. unshare); `whileRunning` may kill it. */
function quire(
  args: string[],
  options: { before?: string[]; whileRunning?: (kill: () => void) => void } = {},
) {
  const [command, ...prefix] = [...(options.before ?? []), process.execPath];
  const child = spawn(command!, [...prefix, cli, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, QUIRE_S3_ENDPOINT: store.endpoint },
  });
  const run: Run = { code: null, signal: null, stdout: '', stderr: '' };
  child.stdout.on('data', (data: Buffer) => (run.stdout += data.toString()));
  child.stderr.on('data', (data: Buffer) => (run.stderr += data.toString()));
  options.whileRunning?.(() => child.kill('SIGKILL'));
  return new Promise<Run>((resolve) =>
    child.once('close', (code, signal) => resolve({ ...run, code, signal })),
  );
}

/** Chunks the full-text index of the library has not absorbed, read straight from the store. */
async function unmergedChunks(): Promise<number> {
  const shared = await openSharedLibrary(location, false);
  const db = await connect(shared.indexUri, { storageOptions: shared.storageOptions });
  try {
    const chunks = await db.openTable('chunks');
    const fts = (await chunks.listIndices()).find((index) => index.indexType === 'FTS');
    if (!fts) throw new Error('the library has no full-text index');
    return (await chunks.indexStats(fts.name))?.numUnindexedRows ?? 0;
  } finally {
    db.close();
    await shared.dispose();
  }
}

describe.skipIf(!hasCorpus)('a team library whose writer was interrupted or doubled', () => {
  it('readers search without writing while chunks are unmerged, and the next writer merges them with nothing new to add', async () => {
    const folder = await folderWith(
      'pdfjs/calrgb.pdf',
      'docling/pdf__normal_4pages.pdf',
      'pdfjs/tracemonkey.pdf',
    );
    // The same command both times, as a person re-runs it.
    const index = ['index', folder, '--library', store.library, '--no-ocr', '--data-dir', await dataDir()];
    // The writer is killed -9 once page images start: all text is in, not yet folded into the index.
    const objects = new ObjectStore(location, keys);
    const killed = await quire(index, {
      whileRunning: (kill) => {
        const timer = setInterval(() => {
          void objects.list('pages/').then(
            (names) => {
              if (names.length > 0) {
                clearInterval(timer);
                kill();
              }
            },
            () => undefined,
          );
        }, 100);
      },
    });
    expect(killed.signal, `the writer ended before drawing pages: ${killed.stderr}`).toBe('SIGKILL');
    const left = await unmergedChunks();
    expect(left, 'the killed writer left every chunk merged: nothing to test').toBeGreaterThan(0);

    // A reader in another process searches: it exits 0 and says what keyword search may miss.
    const search = ['search', 'trace trees', '--library', store.library, '--k', '3', '--json'];
    const during = await quire([...search, '--data-dir', await dataDir()]);
    expect(during.stderr).not.toMatch(/read-only/);
    expect(during.code, during.stderr).toBe(0);
    expect(during.stderr).toMatch(UNMERGED_NOTE);
    expect(Array.isArray(JSON.parse(during.stdout))).toBe(true);
    // In the app's way too (contract calls), and nothing was written by any of it.
    const reader = createCore({
      dataDir: await dataDir(),
      library: location,
      ingest: false,
      findModels: false,
    });
    await reader.start();
    try {
      const found = await reader.dispatch('search.retrieve', { query: 'trace trees', k: 3, mode: 'bm25' });
      expect(found.ok && (found.value as SearchResult).notes.some((note) => UNMERGED_NOTE.test(note))).toBe(
        true,
      );
      const listed = await reader.dispatch('search.documents', { query: 'trace' });
      expect(listed.ok, listed.ok ? '' : listed.error.message).toBe(true);
      const box = await reader.dispatch('search.query', { query: 'trace trees', k: 3, mode: 'bm25' });
      expect(box.ok ? (box.value as ChunkSearchResult).notice : box.error.message).toMatch(UNMERGED_NOTE);
    } finally {
      await reader.dispose();
    }
    expect(await unmergedChunks()).toBe(left);

    // A complete re-run: the text is all there already, yet the writer folds what the killed one left.
    const rerun = await quire(index);
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(await unmergedChunks()).toBe(0);
    const after = await quire([...search, '--data-dir', await dataDir()]);
    expect(after.code, after.stderr).toBe(0);
    expect(after.stderr).not.toMatch(UNMERGED_NOTE);
    const hits = JSON.parse(after.stdout) as Array<{ path: string }>;
    expect(hits.map((hit) => hit.path)).toContain(join(folder, 'tracemonkey.pdf'));
  }, 900_000);

  it('a lease naming this host name and a process number not running here refuses a second writer', async () => {
    // What a writer on another machine with the same host name leaves, renewed a moment ago.
    const table = new CommitTable(location, keys);
    const key = { base_uri: { S: `${location.uri}#quire-writer` }, version: { N: '0' } };
    const holder = { id: 'f00dfeed-0000-4000-8000-000000000001', host: hostname(), pid: 2 ** 22 + 1 };
    expect(
      await table.putIf(
        { ...key, lease_holder: { S: JSON.stringify({ ...holder, renewedAt: Date.now() }) } },
        // Over whatever an earlier writer left.
        'attribute_not_exists(base_uri) OR attribute_exists(base_uri)',
      ),
    ).toBe(true);
    try {
      const folder = await folderWith('pdfjs/calrgb.pdf');
      const second = await quire([
        ...['index', folder, '--library', store.library, '--no-ocr', '--no-images'],
        ...['--data-dir', await dataDir()],
      ]);
      expect(second.code, 'a second writer was let in').not.toBe(0);
      expect(second.stderr).toMatch(new RegExp(`Another writer is indexing .*process ${holder.pid} on `));
    } finally {
      const item = await table.get(key);
      if (item?.lease_holder && 'S' in item.lease_holder)
        await table.deleteIf(key, 'lease_holder = :held', { ':held': item.lease_holder });
    }
  }, 300_000);

  it.skipIf(!pidNamespaces)(
    'two writers with one host name in separate PID namespaces: the second is refused',
    async () => {
      const first = createCore({
        dataDir: await dataDir(),
        library: location,
        ocr: false,
        renderImages: false,
        findModels: false,
      });
      await first.start();
      try {
        const chunksBefore = (await first.index.maintenance.stats()).chunks;
        const folder = await folderWith('pdfjs/calrgb.pdf', 'pdfjs/tracemonkey.pdf');
        // Same machine, same host name; the first writer's process number means nothing in there.
        const second = await quire(
          [
            ...['index', folder, '--library', store.library, '--no-ocr', '--no-images'],
            ...['--data-dir', await dataDir()],
          ],
          { before: ['unshare', '--pid', '--fork', '--mount-proc'] },
        );
        expect(second.code, 'a second writer in another PID namespace was let in').not.toBe(0);
        expect(second.stderr).toMatch(/Another writer is indexing/);
        expect((await first.index.maintenance.stats()).chunks).toBe(chunksBefore);
      } finally {
        await first.dispose();
      }
    },
    300_000,
  );
});

if (!pidNamespaces)
  console.log(
    'team library: no PID namespaces here (unshare --pid needs root on Linux); that writer test is skipped',
  );
