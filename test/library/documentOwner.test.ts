/**
 * One owner per document: the index's `documents` table. `library.json` holds the folders only; a
 * data folder written in the first format has its documents moved into the table once, and the
 * rows of a scan are written in a few commits, not one per file.
 */
import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { connect } from '@lancedb/lancedb';
import { afterEach, describe, expect, it } from 'vitest';
import { idForPath } from '../../src/core/common/ids';
import { LibraryService } from '../../src/core/library/libraryService';
import { startLibrary } from '../helpers/libraryRows';
import { samplePdfBytes, samplePdfs } from '../helpers/samplePdfs';
import { tempDir } from '../helpers/shared';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function dir(): Promise<string> {
  const made = await tempDir('quire-owner-');
  cleanups.push(made.cleanup);
  return made.path;
}

/** The documents table's rows and version, read straight from LanceDB. */
async function documentsTable(dataDir: string) {
  const table = await (await connect(join(dataDir, 'index'))).openTable('documents');
  try {
    const rows = (await table.query().toArray()) as Array<Record<string, unknown>>;
    return { version: await table.version(), rows };
  } finally {
    table.close();
  }
}

describe('documents live in the index only', () => {
  it('moves a first-format library.json into the table once and keeps the old file beside', async () => {
    const dataDir = await dir();
    const folder = await dir();
    const indexedPath = join(folder, 'trace.pdf');
    const failedPath = join(folder, 'broken.pdf');
    await writeFile(indexedPath, samplePdfBytes(samplePdfs[0]!.pages));
    await writeFile(failedPath, '%PDF-1.7 not really');
    const fileFacts = async (path: string) => {
      const info = await stat(path);
      return { bytes: info.size, modifiedMs: Math.trunc(info.mtimeMs) };
    };
    const rootId = idForPath('root', folder);
    const v1 = {
      version: 1,
      roots: [{ id: rootId, path: folder, addedAt: '2026-01-02T03:04:05.000Z', error: null }],
      documents: [
        {
          id: idForPath('doc', indexedPath),
          rootId,
          path: indexedPath,
          relativePath: 'trace.pdf',
          kind: 'pdf',
          ...(await fileFacts(indexedPath)),
          pages: 3,
          state: 'indexed',
          error: null,
          // Content the index does not hold: the row must not claim it.
          contentHash: 'ab'.repeat(32),
        },
        {
          id: idForPath('doc', failedPath),
          rootId,
          path: failedPath,
          relativePath: 'broken.pdf',
          kind: 'pdf',
          ...(await fileFacts(failedPath)),
          pages: null,
          state: 'failed',
          error: 'This PDF cannot be read.',
          contentHash: null,
        },
      ],
    };
    const written = JSON.stringify(v1, null, 2);
    await writeFile(join(dataDir, 'library.json'), written);

    const open = async () => {
      const library = new LibraryService({ dataDir, watch: false });
      const close = await startLibrary(library, dataDir);
      await library.whenIdle();
      const snapshot = library.snapshot();
      await close();
      return snapshot;
    };

    const first = await open();
    expect(first.roots.map((root) => root.path)).toEqual([folder]);
    expect(first.documents.map((d) => [d.relativePath, d.state, d.pages])).toEqual([
      ['broken.pdf', 'failed', null],
      ['trace.pdf', 'listed', 3],
    ]);
    // Sizes and times came over with the documents: the scan saw nothing new (a file it took for new
    // or changed would be listed again, its pages unknown until read).
    const table = await documentsTable(dataDir);
    const byPath = new Map(table.rows.map((row) => [row.path, row]));
    expect(byPath.get(indexedPath)).toMatchObject({ state: 'listed', content_hash: null, pages: 3 });
    expect(byPath.get(failedPath)).toMatchObject({ state: 'failed', error: 'This PDF cannot be read.' });
    expect(await readFile(join(dataDir, 'library.v1.json'), 'utf8')).toBe(written);
    const now = JSON.parse(await readFile(join(dataDir, 'library.json'), 'utf8')) as Record<string, unknown>;
    expect(now).toEqual({ version: 2, roots: v1.roots });

    // A second start moves nothing and writes nothing.
    const keptAside = await stat(join(dataDir, 'library.v1.json'));
    const second = await open();
    expect(second.documents).toEqual(first.documents);
    expect((await documentsTable(dataDir)).version).toBe(table.version);
    expect((await stat(join(dataDir, 'library.v1.json'))).mtimeMs).toBe(keptAside.mtimeMs);
  }, 60_000);

  it('writes the rows of a scan in a few commits, and lists them from memory', async () => {
    const dataDir = await dir();
    const folder = await dir();
    const files = 1200;
    for (let i = 0; i < files; i++)
      await writeFile(join(folder, `note-${i}.md`), `# Note ${i}\n\nText ${i}.\n`);
    const library = new LibraryService({ dataDir, watch: false });
    const close = await startLibrary(library, dataDir);
    cleanups.unshift(close);
    const before = (await documentsTable(dataDir)).version;
    await library.addFolder(folder);
    await library.whenIdle();
    const after = await documentsTable(dataDir);
    expect(after.rows).toHaveLength(files);
    expect(after.rows.every((row) => row.state === 'listed')).toBe(true);
    const commits = after.version - before;
    // 300 rows a commit at most, or what 500 ms of scanning found: a handful, not one per file.
    expect(commits).toBeGreaterThanOrEqual(Math.ceil(files / 300));
    expect(commits).toBeLessThanOrEqual(files / 50);
    expect(library.snapshot().documents).toHaveLength(files);
    // A rescan of an unchanged folder writes nothing.
    await close();
    const again = new LibraryService({ dataDir, watch: false });
    cleanups.unshift(await startLibrary(again, dataDir));
    await again.whenIdle();
    expect((await documentsTable(dataDir)).version).toBe(after.version);
    expect(again.snapshot().documents).toHaveLength(files);
  }, 120_000);
});
