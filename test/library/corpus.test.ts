import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LibraryService } from '../../src/core/library/libraryService';
import { startLibrary } from '../helpers/libraryRows';
import { corpusDir, readManifest, tempDir } from '../helpers/shared';

const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
});

async function scanFolder(folder: string) {
  const data = await tempDir();
  cleanups.push(data.cleanup);
  const library = new LibraryService({ dataDir: data.path, watch: false });
  const close = await startLibrary(library, data.path);
  await library.addFolder(folder);
  await library.whenIdle();
  const docs = library.snapshot().documents;
  await close();
  return docs;
}

describe('the library on the real corpus', () => {
  it('counts the pages MANIFEST.tsv gives for every readable PDF', async () => {
    const docs = await scanFolder(corpusDir);
    const pagesByPath = new Map(docs.map((d) => [relative(corpusDir, d.path), d.pages]));
    const expected = readManifest().filter((row) => row.pages !== null && !row.localPath.startsWith('odd/'));
    expect(expected.length).toBeGreaterThan(200);
    const mismatches = expected
      .filter((row) => pagesByPath.get(row.localPath) !== row.pages)
      .map((row) => `${row.localPath}: manifest ${row.pages}, listed ${pagesByPath.get(row.localPath)}`);
    expect(mismatches).toEqual([]);
  }, 180_000);

  it('lists every odd PDF with its pages or a clear error, without crashing or hanging', async () => {
    const docs = await scanFolder(join(corpusDir, 'odd'));
    const pdfs = docs.filter((d) => d.kind === 'pdf');
    expect(pdfs.length).toBeGreaterThanOrEqual(40);
    for (const doc of pdfs) {
      const clear =
        (doc.state === 'listed' && (doc.pages ?? 0) > 0 && doc.error === null) ||
        (['failed', 'needsPassword'].includes(doc.state) && (doc.error ?? '').length > 10);
      expect(clear, `${doc.relativePath}: ${JSON.stringify(doc)}`).toBe(true);
    }
    expect(pdfs.filter((d) => d.state === 'needsPassword').length).toBeGreaterThanOrEqual(8);
  }, 120_000);
});
