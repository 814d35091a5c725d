import { readdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDocumentPool } from '../../src/core/documents/pool/documentPool';
import { PageImageStore } from '../../src/core/documents/render/pageImageStore';
import { THUMBNAIL_LONG_EDGE } from '../../src/core/documents/render/raster';
import { renderPdfPages } from '../../src/core/documents/render/renderPdfPages';
import { corpusDir, tempDir, withoutCorpus } from '../helpers/shared';

const noCorpus = withoutCorpus('page images of corpus PDFs');

const pool = createDocumentPool({ size: 2, jobTimeoutMs: 45_000 });
let dir: Awaited<ReturnType<typeof tempDir>>;
let store: PageImageStore;
const hashA = 'a1'.repeat(32);

beforeAll(async () => {
  dir = await tempDir('quire-images-');
  store = new PageImageStore(dir.path);
});
afterAll(async () => {
  await pool.dispose();
  await dir.cleanup();
});

async function webpSize(path: string) {
  const meta = await sharp(path).metadata();
  return { format: meta.format, width: meta.width, height: meta.height };
}

describe.skipIf(noCorpus)('page images', () => {
  it('renders WebP pages with the requested long edge and a 256 px thumbnail', async () => {
    const path = join(corpusDir, 'pdfjs', 'tracemonkey.pdf');
    const refs = await pool.render(path, { contentHash: hashA, pages: [1, 2] }, store);
    expect(refs.map((ref) => ref.page)).toEqual([1, 2]);
    for (const ref of refs) {
      // Letter portrait: 612 x 792 points -> 1600 px tall.
      expect(ref.height).toBe(1600);
      expect(ref.width).toBe(Math.round((612 / 792) * 1600));
      expect(await webpSize(store.absolutePath(ref.full))).toEqual({
        format: 'webp',
        width: ref.width,
        height: ref.height,
      });
      const thumb = await webpSize(store.absolutePath(ref.thumbnail));
      expect(thumb.format).toBe('webp');
      expect(Math.max(thumb.width!, thumb.height!)).toBe(THUMBNAIL_LONG_EDGE);
    }
    // The page is not blank: text was drawn.
    const { channels, isOpaque } = await sharp(store.absolutePath(refs[0]!.full)).stats();
    expect(isOpaque).toBe(true);
    expect(channels[0]!.min).toBeLessThan(100);
  });

  it('reuses stored images for the same content, and the long edge is part of the address', async () => {
    const path = join(corpusDir, 'pdfjs', 'tracemonkey.pdf');
    const [first] = await pool.render(path, { contentHash: hashA, pages: [1] }, store);
    const before = (await stat(store.absolutePath(first!.full))).mtimeMs;
    const [again] = await pool.render(path, { contentHash: hashA, pages: [1] }, store);
    expect(again).toEqual(first);
    expect((await stat(store.absolutePath(again!.full))).mtimeMs).toBe(before);
    const [small] = await pool.render(path, { contentHash: hashA, pages: [1], longEdge: 800 }, store);
    expect(small!.full).not.toBe(first!.full);
    expect(small!.height).toBe(800);
    // No temp files are left behind by the atomic writes.
    const files = await readdir(join(dir.path, hashA.slice(0, 2), hashA));
    expect(files.filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('caps enormous pages and memory-bomb images at the long edge', async () => {
    for (const name of ['enormous.pdf', 'hugemono.pdf']) {
      const hash = (name === 'enormous.pdf' ? 'b2' : 'c3').repeat(32);
      const [ref] = await pool.render(join(corpusDir, 'odd', 'ocrmypdf', name), { contentHash: hash }, store);
      expect(Math.max(ref!.width, ref!.height), name).toBe(1600);
      expect(await webpSize(store.absolutePath(ref!.full))).toMatchObject({ format: 'webp' });
    }
  });

  it('renders every page of a document in batches when no pages are named', async () => {
    const batching = createDocumentPool({ size: 1, renderBatchPages: 3 });
    try {
      const path = join(corpusDir, 'docling', 'pdf__normal_4pages.pdf');
      const refs = await batching.render(path, { contentHash: 'f6'.repeat(32), longEdge: 400 }, store);
      expect(refs.map((ref) => ref.page)).toEqual([1, 2, 3, 4]);
      expect(refs.every((ref) => Math.max(ref.width, ref.height) === 400)).toBe(true);
    } finally {
      await batching.dispose();
    }
  });

  it('draws one long document on every worker at once, pages in order', async () => {
    const parallel = createDocumentPool({ size: 2, renderBatchPages: 2 });
    try {
      const path = join(corpusDir, 'docling', 'pdf__normal_4pages.pdf');
      const refs = await parallel.render(path, { contentHash: 'a7'.repeat(32), longEdge: 300 }, store);
      expect(refs.map((ref) => ref.page)).toEqual([1, 2, 3, 4]);
      expect(parallel.workersStarted()).toBe(2);
      // A batch that fails fails the whole render.
      const missing = parallel.render(
        path,
        { contentHash: 'a8'.repeat(32), pages: [1, 2, 9], longEdge: 300 },
        store,
      );
      await expect(missing).rejects.toMatchObject({ code: 'invalid_input' });
    } finally {
      await parallel.dispose();
    }
  });

  it('fails with the store’s error when images cannot be saved', async () => {
    const blocker = join(dir.path, 'not-a-folder');
    await writeFile(blocker, 'a file where the image folder should be');
    const path = join(corpusDir, 'pdfjs', 'tracemonkey.pdf');
    const options = { contentHash: 'a9'.repeat(32), pages: [1, 2, 3, 4], longEdge: 200 };
    await expect(renderPdfPages(path, options, new PageImageStore(blocker))).rejects.toMatchObject({
      code: 'not_readable',
    });
  });

  it('remove() deletes one document’s images only', async () => {
    const other = 'd4'.repeat(32);
    await pool.render(join(corpusDir, 'pdfjs', 'calrgb.pdf'), { contentHash: other, pages: [1] }, store);
    await store.remove(hashA);
    expect(await store.get(hashA, 1, 1600)).toBeNull();
    expect(await store.get(other, 1, 1600)).not.toBeNull();
  });

  it('rejects pages that do not exist and locked files without their password', async () => {
    const path = join(corpusDir, 'pdfjs', 'tracemonkey.pdf');
    await expect(pool.render(path, { contentHash: hashA, pages: [99] }, store)).rejects.toMatchObject({
      code: 'invalid_input',
    });
    const locked = join(corpusDir, 'odd', 'unstructured', 'password.pdf');
    const hash = 'e5'.repeat(32);
    await expect(pool.render(locked, { contentHash: hash }, store)).rejects.toMatchObject({
      code: 'needs_password',
    });
    const refs = await pool.render(locked, { contentHash: hash, password: 'password' }, store);
    expect(refs).toHaveLength(1);
  });
});
