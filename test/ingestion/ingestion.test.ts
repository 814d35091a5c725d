import { existsSync } from 'node:fs';
import { copyFile, readdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createDocumentPool, type DocumentPool } from '../../src/core/documents/pool/documentPool';
import { PageImageStore } from '../../src/core/documents/render/pageImageStore';
import { openIndexStore } from '../../src/core/index/indexStore';
import { IngestionQueue } from '../../src/core/ingestion/ingestionQueue';
import { PasswordVault } from '../../src/core/ingestion/passwordVault';
import { LibraryService } from '../../src/core/library/libraryService';
import { QuireError } from '../../src/shared/errors';
import { corpusDir, tempDir } from '../helpers/shared';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/**
 * The real pieces, with the pool wrapped to count how often files are actually read; `render`
 * replaces the pool's drawing, to make it fail.
 */
async function openPipeline(
  dataDir: string,
  folder: string,
  watch = true,
  render?: (
    pool: DocumentPool,
    ...args: Parameters<DocumentPool['render']>
  ) => ReturnType<DocumentPool['render']>,
) {
  const library = new LibraryService({ dataDir, watch, changeDelayMs: 20 });
  const index = await openIndexStore({ uri: join(dataDir, 'index') });
  const pool = createDocumentPool({ size: 1, jobTimeoutMs: 60_000 });
  const reads: string[] = [];
  const countingPool: DocumentPool = {
    ...pool,
    size: pool.size,
    parse: (path, options) => {
      reads.push(path);
      return pool.parse(path, options);
    },
    render: (path, options, store) =>
      render ? render(pool, path, options, store) : pool.render(path, options, store),
  };
  const images = new PageImageStore(join(dataDir, 'pages'));
  const queue = new IngestionQueue({
    library,
    index,
    pool: countingPool,
    images,
    passwords: new PasswordVault(null),
    imageLongEdge: 300,
    retryDelayMs: 10,
  });
  await library.start();
  queue.start();
  cleanups.unshift(async () => {
    await queue.close();
    await pool.close();
    await library.close();
    await index.close();
  });
  if (!library.snapshot().roots.length) await library.addFolder(folder);
  const settle = async () => {
    do {
      await library.whenIdle();
      await queue.whenIdle();
    } while (library.snapshot().scanning);
  };
  await settle();
  return { library, index, queue, reads, images, settle };
}

async function waitUntil(check: () => boolean | Promise<boolean>, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function imageDirs(dataDir: string): Promise<string[]> {
  const root = join(dataDir, 'pages');
  if (!existsSync(root)) return [];
  const out: string[] = [];
  for (const prefix of await readdir(root)) out.push(...(await readdir(join(root, prefix))));
  return out.sort();
}

describe('ingestion', () => {
  it('indexes text and images, then follows a rename, a change and a delete', async () => {
    const data = await tempDir();
    const folder = await tempDir();
    cleanups.push(data.cleanup, folder.cleanup);
    await copyFile(join(corpusDir, 'pdfjs/tracemonkey.pdf'), join(folder.path, 'paper.pdf'));
    await copyFile(join(corpusDir, 'docling/pdf__normal_4pages.pdf'), join(folder.path, 'four.pdf'));
    const { library, index, reads } = await openPipeline(data.path, folder.path);

    const states = () =>
      Object.fromEntries(library.snapshot().documents.map((d) => [d.relativePath, d.state]));
    expect(states()).toEqual({ 'four.pdf': 'indexed', 'paper.pdf': 'indexed' });
    expect(reads).toHaveLength(2);
    const hits = await index.searchChunks('Trace-based Just-in-Time Type Specialization', { k: 3 });
    expect(hits[0]).toMatchObject({ page: 1 });
    expect(hits[0]?.path).toBe(join(folder.path, 'paper.pdf'));
    expect(await imageDirs(data.path)).toHaveLength(2);
    const paperHash = library.snapshot().documents.find((d) => d.relativePath === 'paper.pdf');
    expect(paperHash).toBeDefined();

    // A rename keeps the content: no second read, the same images, search follows the new path.
    await rename(join(folder.path, 'paper.pdf'), join(folder.path, 'renamed.pdf'));
    await waitUntil(() => states()['renamed.pdf'] === 'indexed' && !('paper.pdf' in states()));
    await waitUntil(async () => {
      const [hit] = await index.searchChunks('Trace-based Just-in-Time Type Specialization', { k: 1 });
      return hit?.path === join(folder.path, 'renamed.pdf');
    });
    expect(reads).toHaveLength(2);
    expect(await imageDirs(data.path)).toHaveLength(2);

    // New content under the same name: read again, old rows and images go.
    await copyFile(join(corpusDir, 'pdfjs/rotation.pdf'), join(folder.path, 'renamed.pdf'));
    await waitUntil(
      async () => (await index.searchChunks('Trace-based Just-in-Time', { k: 1 })).length === 0,
    );
    await waitUntil(() => states()['renamed.pdf'] === 'indexed');
    expect(reads).toHaveLength(3);
    await waitUntil(async () => (await imageDirs(data.path)).length === 2);

    // Deleting removes rows and images.
    await rm(join(folder.path, 'four.pdf'));
    await waitUntil(() => !('four.pdf' in states()));
    await waitUntil(async () => (await imageDirs(data.path)).length === 1);
    expect((await index.stats()).indexedDocuments).toBe(1);
  }, 120_000);

  it('puts encrypted PDFs in needsPassword and unlocks them with the right password only', async () => {
    const data = await tempDir();
    const folder = await tempDir();
    cleanups.push(data.cleanup, folder.cleanup);
    await copyFile(join(corpusDir, 'odd/pdfjs/issue6010_1.pdf'), join(folder.path, 'locked.pdf'));
    await copyFile(join(corpusDir, 'odd/pdfjs/bug1020226.pdf'), join(folder.path, 'broken.pdf'));
    const { library, queue } = await openPipeline(data.path, folder.path, false);
    const doc = (name: string) => library.snapshot().documents.find((d) => d.relativePath === name)!;
    expect(doc('locked.pdf').state).toBe('needsPassword');
    expect(doc('broken.pdf')).toMatchObject({ state: 'failed' });
    expect(doc('broken.pdf').error).toMatch(/cannot be read/);

    await expect(queue.unlock(doc('locked.pdf').id, 'wrong', false)).rejects.toMatchObject({
      code: 'wrong_password',
    });
    expect(doc('locked.pdf').state).toBe('needsPassword');
    await expect(queue.unlock(doc('locked.pdf').id, 'abc', true)).rejects.toMatchObject({
      code: 'unsupported',
    });
    const unlocked = await queue.unlock(doc('locked.pdf').id, 'abc', false);
    expect(unlocked.state).toBe('indexed');
  }, 60_000);

  it('resumes after a restart without reading indexed files again', async () => {
    const data = await tempDir();
    const folder = await tempDir();
    cleanups.push(data.cleanup, folder.cleanup);
    await copyFile(join(corpusDir, 'docling/pdf__normal_4pages.pdf'), join(folder.path, 'four.pdf'));
    const first = await openPipeline(data.path, folder.path, false);
    expect(first.reads).toHaveLength(1);
    for (const cleanup of cleanups.splice(0, 1)) await cleanup();
    await copyFile(join(corpusDir, 'pdfjs/rotation.pdf'), join(folder.path, 'added while closed.pdf'));
    const second = await openPipeline(data.path, folder.path, false);
    expect(second.reads.map((p) => p.split('/').pop())).toEqual(['added while closed.pdf']);
    expect(second.library.snapshot().documents.every((d) => d.state === 'indexed')).toBe(true);
  }, 60_000);

  it('keeps the text and the pages drawn so far when drawing the rest fails', async () => {
    const data = await tempDir();
    const folder = await tempDir();
    cleanups.push(data.cleanup, folder.cleanup);
    await copyFile(join(corpusDir, 'docling/pdf__normal_4pages.pdf'), join(folder.path, 'four.pdf'));
    // Pages 1 and 2 are drawn, then drawing stops at its time limit.
    const { library, index } = await openPipeline(
      data.path,
      folder.path,
      false,
      async (pool, path, options, store) => {
        await pool.render(path, { ...options, pages: [1, 2] }, store);
        throw new QuireError('timeout', 'Reading the document took longer than the 3 min limit.');
      },
    );
    const [doc] = library.snapshot().documents;
    expect(doc).toMatchObject({ state: 'indexed', pages: 4 });
    expect(doc!.error).toBe(
      '2 of 4 page images could not be drawn: Reading the document took longer than the 3 min limit.',
    );
    expect(index.getDocument(doc!.id)?.error).toBe(doc!.error);
    expect((await index.getPage(doc!.id, 2)).image).not.toBeNull();
    expect((await index.getPage(doc!.id, 3)).image).toBeNull();
    const [hit] = await index.searchChunks('국회입법조사처', { k: 1 });
    expect(hit?.path).toBe(join(folder.path, 'four.pdf'));
  }, 60_000);

  it('fails the file when its page images cannot be saved', async () => {
    const data = await tempDir();
    const folder = await tempDir();
    cleanups.push(data.cleanup, folder.cleanup);
    await copyFile(join(corpusDir, 'docling/pdf__normal_4pages.pdf'), join(folder.path, 'four.pdf'));
    const { library } = await openPipeline(data.path, folder.path, false, async () => {
      throw new QuireError('disk_full', 'The disk is full: page images cannot be saved.');
    });
    await waitUntil(() => library.snapshot().documents[0]?.state === 'quarantined');
    expect(library.snapshot().documents[0]?.error).toMatch(/disk is full/);
  }, 60_000);
});
