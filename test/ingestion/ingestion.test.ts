import { existsSync } from 'node:fs';
import { copyFile, readdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createDocumentPool, type DocumentPool } from '../../src/core/documents/pool/documentPool';
import { PageImageStore } from '../../src/core/documents/render/pageImageStore';
import { Index } from '../../src/core/index/openIndex';
import { Ingestion } from '../../src/core/ingestion/ingestion';
import { PasswordVault } from '../../src/core/ingestion/passwordVault';
import { retryDocument } from '../../src/core/ingestion/retryDocument';
import { LibraryService } from '../../src/core/library/libraryService';
import { QuireError } from '../../src/shared/errors';
import { corpusDir, tempDir, withoutCorpus } from '../helpers/shared';

const noCorpus = withoutCorpus('ingestion of corpus PDFs');

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

type Render = (
  pool: DocumentPool,
  ...args: Parameters<DocumentPool['render']>
) => ReturnType<DocumentPool['render']>;

/**
 * The real pieces, with the pool wrapped to count how often files are actually read; `render`
 * replaces the pool's drawing, to hold it back or make it fail. Waits until all is indexed unless
 * `settleFirst` is false.
 */
async function openPipeline(
  dataDir: string,
  folder: string,
  watch = true,
  render?: Render,
  settleFirst = true,
) {
  const library = new LibraryService({ dataDir, watch, changeDelayMs: 20 });
  const images = new PageImageStore(join(dataDir, 'pages'));
  const index = await Index.open({
    uri: join(dataDir, 'index'),
    onContentRemoved: async (hashes) => {
      for (const hash of hashes) await images.remove(hash);
    },
  });
  const pool = createDocumentPool({ size: 1, jobTimeoutMs: 60_000 });
  const reads: string[] = [];
  /** Files read as urgent pool jobs (someone waits for them). */
  const urgentReads: string[] = [];
  const countingPool: DocumentPool = {
    ...pool,
    size: pool.size,
    parse: (path, options) => {
      reads.push(path);
      if (options.urgent) urgentReads.push(path);
      return pool.parse(path, options);
    },
    render: (path, options, store) =>
      render ? render(pool, path, options, store) : pool.render(path, options, store),
  };
  const queue = new Ingestion({
    library,
    index,
    pool: countingPool,
    images,
    passwords: new PasswordVault(null),
    imageLongEdge: 300,
    retryDelayMs: 10,
  });
  await library.start(index.documents);
  queue.start();
  cleanups.unshift(async () => {
    await queue.dispose();
    await pool.dispose();
    await library.dispose();
    await index.dispose();
  });
  if (!library.snapshot().roots.length) await library.addFolder(folder);
  const settle = async () => {
    do {
      await library.whenIdle();
      await queue.whenIdle();
    } while (library.snapshot().scanning);
  };
  if (settleFirst) await settle();
  return { library, index, queue, reads, urgentReads, images, settle };
}

/** A fresh data folder and a library folder holding copies of corpus files (name: corpus path). */
async function folderWith(files: Record<string, string>) {
  const data = await tempDir();
  const folder = await tempDir();
  cleanups.push(data.cleanup, folder.cleanup);
  for (const [name, source] of Object.entries(files)) {
    await copyFile(join(corpusDir, source), join(folder.path, name));
  }
  return { data, folder };
}

async function waitUntil(check: () => boolean | Promise<boolean>, ms = 30_000): Promise<void> {
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

describe.skipIf(noCorpus)('ingestion', () => {
  it('indexes text and images, then follows a rename, a change and a delete', async () => {
    const { data, folder } = await folderWith({
      'paper.pdf': 'pdfjs/tracemonkey.pdf',
      'four.pdf': 'docling/pdf__normal_4pages.pdf',
    });
    const { library, index, reads } = await openPipeline(data.path, folder.path);

    const states = () =>
      Object.fromEntries(library.snapshot().documents.map((d) => [d.relativePath, d.state]));
    expect(states()).toEqual({ 'four.pdf': 'indexed', 'paper.pdf': 'indexed' });
    expect(reads).toHaveLength(2);
    const hits = await index.search.chunks('Trace-based Just-in-Time Type Specialization', { k: 3 });
    expect(hits[0]).toMatchObject({ page: 1 });
    expect(hits[0]?.path).toBe(join(folder.path, 'paper.pdf'));
    expect(await imageDirs(data.path)).toHaveLength(2);
    const paperHash = library.snapshot().documents.find((d) => d.relativePath === 'paper.pdf');
    expect(paperHash).toBeDefined();

    // A rename keeps the content: no second read, the same images, search follows the new path.
    await rename(join(folder.path, 'paper.pdf'), join(folder.path, 'renamed.pdf'));
    await waitUntil(() => states()['renamed.pdf'] === 'indexed' && !('paper.pdf' in states()));
    await waitUntil(async () => {
      const [hit] = await index.search.chunks('Trace-based Just-in-Time Type Specialization', { k: 1 });
      return hit?.path === join(folder.path, 'renamed.pdf');
    });
    expect(reads).toHaveLength(2);
    expect(await imageDirs(data.path)).toHaveLength(2);

    // New content under the same name: read again, old rows and images go.
    await copyFile(join(corpusDir, 'pdfjs/rotation.pdf'), join(folder.path, 'renamed.pdf'));
    await waitUntil(
      async () => (await index.search.chunks('Trace-based Just-in-Time', { k: 1 })).length === 0,
    );
    await waitUntil(() => states()['renamed.pdf'] === 'indexed');
    expect(reads).toHaveLength(3);
    await waitUntil(async () => (await imageDirs(data.path)).length === 2);

    // Deleting removes rows and images.
    await rm(join(folder.path, 'four.pdf'));
    await waitUntil(() => !('four.pdf' in states()));
    await waitUntil(async () => (await imageDirs(data.path)).length === 1);
    expect((await index.maintenance.stats()).indexedDocuments).toBe(1);
  }, 120_000);

  it('puts encrypted PDFs in needsPassword and unlocks them with the right password only', async () => {
    const { data, folder } = await folderWith({
      'locked.pdf': 'odd/pdfjs/issue6010_1.pdf',
      'broken.pdf': 'odd/pdfjs/bug1020226.pdf',
    });
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
  }, 120_000);

  it('resumes after a restart without reading indexed files again', async () => {
    const { data, folder } = await folderWith({ 'four.pdf': 'docling/pdf__normal_4pages.pdf' });
    const first = await openPipeline(data.path, folder.path, false);
    expect(first.reads).toHaveLength(1);
    for (const cleanup of cleanups.splice(0, 1)) await cleanup();
    await copyFile(join(corpusDir, 'pdfjs/rotation.pdf'), join(folder.path, 'added while closed.pdf'));
    const second = await openPipeline(data.path, folder.path, false);
    expect(second.reads.map((p) => p.split('/').pop())).toEqual(['added while closed.pdf']);
    expect(second.library.snapshot().documents.every((d) => d.state === 'indexed')).toBe(true);
  }, 120_000);

  it('keeps the text and the pages drawn so far when drawing the rest fails', async () => {
    const { data, folder } = await folderWith({ 'four.pdf': 'docling/pdf__normal_4pages.pdf' });
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
    expect(index.documents.get(doc!.id)?.error).toBe(doc!.error);
    expect((await index.content.page(doc!.id, 2)).image).not.toBeNull();
    expect((await index.content.page(doc!.id, 3)).image).toBeNull();
    const [hit] = await index.search.chunks('국회입법조사처', { k: 1 });
    expect(hit?.path).toBe(join(folder.path, 'four.pdf'));
  }, 120_000);

  it('keeps the text searchable when page images cannot be saved, and says why', async () => {
    const { data, folder } = await folderWith({ 'four.pdf': 'docling/pdf__normal_4pages.pdf' });
    const { library, index } = await openPipeline(data.path, folder.path, false, async () => {
      throw new QuireError('disk_full', 'The disk is full: page images cannot be saved.');
    });
    const [doc] = library.snapshot().documents;
    expect(doc).toMatchObject({
      state: 'indexed',
      error: 'Page images could not be drawn: The disk is full: page images cannot be saved.',
    });
    expect(await index.search.chunks('국회입법조사처', { k: 1 })).toHaveLength(1);
  }, 120_000);

  it('makes every file’s text searchable before drawing page images, then attaches them', async () => {
    const { data, folder } = await folderWith({
      'paper.pdf': 'pdfjs/tracemonkey.pdf',
      'four.pdf': 'docling/pdf__normal_4pages.pdf',
    });
    const gate = held();
    const statesAtFirstDrawing: string[] = [];
    const { library, index, queue, settle } = await openPipeline(
      data.path,
      folder.path,
      false,
      async (pool, path, options, store) => {
        // Whole documents wait at the gate; a single page the user opened does not.
        if (options.pages?.length !== 1) {
          if (statesAtFirstDrawing.length === 0) {
            statesAtFirstDrawing.push(...library.snapshot().documents.map((d) => d.state));
          }
          await gate.until(options.signal);
        }
        return pool.render(path, options, store);
      },
      false,
    );
    await waitUntil(() => {
      const documents = library.snapshot().documents;
      return documents.length === 2 && documents.every((d) => d.state === 'indexed');
    });
    await waitUntil(() => statesAtFirstDrawing.length > 0);
    expect(statesAtFirstDrawing).toEqual(['indexed', 'indexed']);
    // Progress counts the text as done and every page as still to draw.
    await waitUntil(() => queue.progress().pagesToDraw === 14 + 4);
    expect(queue.progress()).toMatchObject({ filesDone: 2, filesTotal: 2, pagesDone: 18 });
    const [hit] = await index.search.chunks('Trace-based Just-in-Time Type Specialization', { k: 1 });
    expect(hit).toMatchObject({ page: 1 });
    const paper = library.snapshot().documents.find((d) => d.relativePath === 'paper.pdf')!;
    expect((await index.content.page(paper.id, 1)).image).toBeNull();
    // Opening a page draws it now.
    expect(await queue.drawPageNow(paper.id, 2)).toMatchObject({ page: 2, height: 300 });
    expect((await index.content.page(paper.id, 2)).image).not.toBeNull();
    expect((await index.content.page(paper.id, 1)).image).toBeNull();

    gate.release();
    await settle();
    expect(queue.progress().pagesToDraw).toBe(0);
    expect((await index.content.page(paper.id, 1)).image).toMatchObject({ height: 300 });
    expect(await index.content.contentMissingImages()).toEqual([]);
    expect(library.snapshot().documents.every((d) => d.error === null)).toBe(true);
  }, 120_000);

  it('reads a retried file at once, as an urgent pool job, while page drawing holds every slot', async () => {
    const { data, folder } = await folderWith({
      'paper.pdf': 'pdfjs/tracemonkey.pdf',
      'broken.pdf': 'odd/pdfjs/bug1020226.pdf',
    });
    const gate = held();
    let drawingsWaiting = 0;
    const { library, queue, urgentReads, settle } = await openPipeline(
      data.path,
      folder.path,
      false,
      async (pool, path, options, store) => {
        drawingsWaiting++;
        await gate.until(options.signal);
        return pool.render(path, options, store);
      },
      false,
    );
    const broken = () => library.snapshot().documents.find((d) => d.relativePath === 'broken.pdf');
    await waitUntil(() => broken()?.state === 'failed' && drawingsWaiting > 0);
    expect(urgentReads).toEqual([]);
    const paper = library.snapshot().documents.find((d) => d.relativePath === 'paper.pdf')!;
    expect(() => retryDocument(library, queue, paper.id)).toThrow(/did not fail/);

    expect(['queued', 'indexing']).toContain(retryDocument(library, queue, broken()!.id).state);
    // The one slot is the held drawing's; the retried file does not wait for it.
    await waitUntil(() => urgentReads.length === 1 && broken()?.state === 'failed');
    expect(broken()?.error).toMatch(/cannot be read/);
    expect(urgentReads[0]).toMatch(/broken\.pdf$/);

    gate.release();
    await settle();
  }, 120_000);

  it('draws the page images a stopped run left undrawn, without reading the text again', async () => {
    const { data, folder } = await folderWith({ 'four.pdf': 'docling/pdf__normal_4pages.pdf' });
    const never = held();
    const first = await openPipeline(
      data.path,
      folder.path,
      false,
      async (pool, path, options, store) => {
        await never.until(options.signal);
        return pool.render(path, options, store);
      },
      false,
    );
    await waitUntil(() => first.library.snapshot().documents[0]?.state === 'indexed');
    expect(await first.index.content.contentMissingImages()).toHaveLength(1);
    for (const cleanup of cleanups.splice(0, 1)) await cleanup();

    const second = await openPipeline(data.path, folder.path, false);
    expect(second.reads).toEqual([]);
    const [doc] = second.library.snapshot().documents;
    expect((await second.index.content.page(doc!.id, 4)).image).not.toBeNull();
    expect(await second.index.content.contentMissingImages()).toEqual([]);
  }, 120_000);
});

/** A gate drawing waits at until `release()`; a cancelled drawing stops waiting with its signal. */
function held() {
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  return {
    release: () => release(),
    until: (signal: AbortSignal | undefined) =>
      new Promise<void>((resolve, reject) => {
        void released.then(resolve);
        signal?.addEventListener('abort', () => reject(new QuireError('cancelled', 'Cancelled.')), {
          once: true,
        });
      }),
  };
}
