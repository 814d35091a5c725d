import { copyFile, mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../src/core/createCore';
import type { DocumentInfo } from '../../src/shared/domain/library';
import { corpusDir, tempDir, withoutCorpus } from '../helpers/shared';

const noCorpus = withoutCorpus('removing and retrying corpus files');

let core: Core | undefined;
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  await core?.dispose();
  core = undefined;
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function call<T>(name: string, input: unknown): Promise<T> {
  const result = await core!.dispatch(name as never, input as never);
  if (!result.ok) throw Object.assign(new Error(result.error.message), { code: result.error.code });
  return result.value as T;
}

const documents = async () => (await call<{ documents: DocumentInfo[] }>('library.list', {})).documents;

/** Every file under the data folder's page images, counted on disk. */
async function pageImageFiles(dataDir: string): Promise<number> {
  const entries = await readdir(join(dataDir, 'pages'), { recursive: true, withFileTypes: true }).catch(
    () => [],
  );
  return entries.filter((entry) => entry.isFile()).length;
}

async function settle(): Promise<void> {
  await core!.library.whenIdle();
  await expect
    .poll(
      async () => {
        await core!.ingestion.whenIdle();
        const progress = core!.ingestion.progress();
        return progress.filesDone === progress.filesTotal && progress.pagesToDraw === 0;
      },
      { timeout: 120_000, interval: 200 },
    )
    .toBe(true);
}

async function startWith(folders: Record<string, Record<string, string>>) {
  const data = await tempDir();
  cleanups.push(data.cleanup);
  const paths: Record<string, string> = {};
  for (const [name, files] of Object.entries(folders)) {
    const folder = await tempDir();
    cleanups.push(folder.cleanup);
    await mkdir(folder.path, { recursive: true });
    for (const [file, source] of Object.entries(files)) {
      await copyFile(join(corpusDir, source), join(folder.path, file));
    }
    paths[name] = folder.path;
  }
  core = createCore({
    dataDir: data.path,
    detectServers: false,
    findModels: false,
    watch: false,
    ocr: false,
    imageLongEdge: 300,
  });
  await core.start();
  const roots: Record<string, string> = {};
  for (const [name, path] of Object.entries(paths)) {
    roots[name] = (await call<{ id: string }>('library.addFolder', { path })).id;
  }
  await settle();
  return { dataDir: data.path, roots };
}

describe.skipIf(noCorpus)('removing a folder, undoing it, and what is collected from disk', () => {
  it('keeps everything during the undo window, puts the folder back as it was, then collects only unshared content', async () => {
    const { dataDir, roots } = await startWith({
      papers: { 'four.pdf': 'docling/pdf__normal_4pages.pdf', 'tracemonkey.pdf': 'pdfjs/tracemonkey.pdf' },
      // The same four pages under another name: their content is shared and must survive.
      copies: { 'four again.pdf': 'docling/pdf__normal_4pages.pdf' },
    });
    expect((await documents()).map((doc) => doc.state)).toEqual(['indexed', 'indexed', 'indexed']);
    const before = { files: await pageImageFiles(dataDir), ...(await core!.index.maintenance.stats()) };
    expect(before.files).toBeGreaterThan(0);
    expect(before.pages).toBe(4 + 14);

    const removed = await call<{ undoUntil: string | null }>('library.removeFolder', {
      rootId: roots.papers,
      undoable: true,
    });
    const window = Date.parse(removed.undoUntil!) - Date.now();
    expect(window).toBeGreaterThan(6_000);
    expect(window).toBeLessThanOrEqual(8_000);
    expect((await documents()).map((doc) => doc.relativePath)).toEqual(['four again.pdf']);
    // Past reconciliation's own short grace: the content is still held for the undo.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(await pageImageFiles(dataDir)).toBe(before.files);
    expect((await core!.index.maintenance.stats()).pages).toBe(before.pages);

    await call('library.undoRemove', { rootId: roots.papers });
    const restored = await documents();
    expect(restored.map((doc) => [doc.relativePath, doc.state]).sort()).toEqual([
      ['four again.pdf', 'indexed'],
      ['four.pdf', 'indexed'],
      ['tracemonkey.pdf', 'indexed'],
    ]);
    await settle();
    expect(await pageImageFiles(dataDir)).toBe(before.files);

    // Removed for good: once the window closes, only TraceMonkey's content goes.
    await call('library.removeFolder', { rootId: roots.papers, undoable: true });
    await expect
      .poll(async () => (await core!.index.maintenance.stats()).pages, { timeout: 30_000, interval: 250 })
      .toBe(4);
    await expect.poll(() => pageImageFiles(dataDir), { timeout: 10_000 }).toBeLessThan(before.files);
    const after = { files: await pageImageFiles(dataDir), ...(await core!.index.maintenance.stats()) };
    expect(after.documents).toBe(1);
    expect(after.chunks).toBeGreaterThan(0);
    expect(after.chunks).toBeLessThan(before.chunks);
    // Four pages' images stay for the copy; the pages tracemonkey drew are gone.
    const image = await core!.dispatch('pages.get', {
      documentId: (await documents())[0]!.id,
      page: 4,
      size: 'thumbnail',
    });
    expect(image.ok).toBe(true);
    await expect(call('library.undoRemove', { rootId: roots.papers })).rejects.toMatchObject({
      code: 'not_found',
    });
  }, 180_000);

  it('retries a failed file on request and refuses files that did not fail', async () => {
    await startWith({
      mixed: { 'broken.pdf': 'odd/pdfjs/bug1020226.pdf', 'four.pdf': 'docling/pdf__normal_4pages.pdf' },
    });
    const byName = async (name: string) => (await documents()).find((doc) => doc.relativePath === name)!;
    const broken = await byName('broken.pdf');
    expect(broken.state).toBe('failed');

    const retried = await call<DocumentInfo>('library.retry', { documentId: broken.id });
    // Queued, or already being read again: no longer failed.
    expect(['queued', 'indexing']).toContain(retried.state);
    await settle();
    expect((await byName('broken.pdf')).state).toBe('failed');
    expect((await byName('broken.pdf')).error).toMatch(/cannot be read/);

    await expect(call('library.retry', { documentId: (await byName('four.pdf')).id })).rejects.toMatchObject({
      code: 'invalid_input',
    });
    await expect(call('library.retry', { documentId: 'doc-nothing' })).rejects.toMatchObject({
      code: 'not_found',
    });
  }, 180_000);
});
