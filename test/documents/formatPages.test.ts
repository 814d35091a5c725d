import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../src/core/createCore';
import { parseDocument } from '../../src/core/documents/parseDocument';
import { PageImageStore } from '../../src/core/documents/render/pageImageStore';
import { openPageImage } from '../../src/core/pages/readPageImage';
import { readerFor } from '../../src/core/documents/readers/formatReaders';
import type { DocumentInfo } from '../../src/shared/domain/library';
import type { PageText } from '../../src/shared/domain/pages';
import type { PageImage } from '../../src/shared/domain/search';
import { corpusDir, tempDir, withoutCorpus } from '../helpers/shared';

const noCorpus = withoutCorpus('laid-out pages of the corpus office files');

const office = join(corpusDir, 'office');
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** Share of dark pixels inside a box given in points, on an image of a page `pageWidth` points wide. */
async function inkIn(
  file: string,
  pageWidth: number,
  box: { x: number; y: number; width: number; height: number },
) {
  const { data, info } = await sharp(file).greyscale().raw().toBuffer({ resolveWithObject: true });
  const scale = info.width / pageWidth;
  let dark = 0;
  let total = 0;
  for (let y = Math.floor(box.y * scale); y < Math.ceil((box.y + box.height) * scale); y++) {
    for (let x = Math.floor(box.x * scale); x < Math.ceil((box.x + box.width) * scale); x++) {
      total++;
      if (data[y * info.width + x]! < 128) dark++;
    }
  }
  return total === 0 ? 0 : dark / total;
}

describe.skipIf(noCorpus)('pages Quire lays out', () => {
  it('are drawn so a chunk’s boxes cover its words on the image', async () => {
    const dir = await tempDir();
    cleanups.push(dir.cleanup);
    const path = join(office, 'html_rich_table_cells.html');
    const parsed = await parseDocument(path, { kind: 'html' });
    const store = new PageImageStore(dir.path);
    const [image] = await readerFor('html').drawPages!(
      path,
      { contentHash: 'ab'.repeat(16), pages: [1], longEdge: 1000 },
      store,
    );
    expect(image!.height).toBe(1000);
    const page = parsed.pages[0]!;
    expect(image!.width).toBe(Math.round((page.width / page.height) * 1000));
    const chunk = parsed.chunks.find((candidate) => candidate.text.includes('Wood Duck'))!;
    const file = store.absolutePath(image!.full);
    for (const box of chunk.boxes) expect(await inkIn(file, page.width, box)).toBeGreaterThan(0.01);
    // The margin above the first line stays blank: ink is where the boxes say, not everywhere.
    expect(await inkIn(file, page.width, { x: 0, y: 0, width: page.width, height: 40 })).toBe(0);
  });

  it('are listed, indexed with images and shown as text; unsupported and waiting files say why', async () => {
    const dir = await tempDir();
    cleanups.push(dir.cleanup);
    const folder = join(dir.path, 'library');
    await mkdir(folder);
    for (const name of ['powerpoint_sample.pptx', 'legacy_sample.ppt', 'webp-test.webp']) {
      await copyFile(join(office, name), join(folder, name));
    }
    await writeFile(join(folder, 'broken.xlsx'), 'not a workbook');
    const core: Core = createCore({
      dataDir: join(dir.path, 'data'),
      detectServers: false,
      findModels: false,
      workers: 1,
      imageLongEdge: 400,
      ocr: false,
    });
    cleanups.unshift(() => core.dispose());
    await core.start();
    await core.library.addFolder(folder);
    await core.library.whenIdle();
    await core.ingestion.whenIdle();
    const byName = (name: string) =>
      core.library.snapshot().documents.find((doc) => doc.path.endsWith(name)) as DocumentInfo;
    expect(byName('powerpoint_sample.pptx')).toMatchObject({ state: 'indexed', pages: 3, kind: 'pptx' });
    expect(byName('legacy_sample.ppt')).toMatchObject({
      state: 'unsupported',
      error: expect.stringContaining('save it as .pptx'),
    });
    // OCR is off here: the picture is a page with its image, and says its text waits for OCR.
    expect(byName('webp-test.webp')).toMatchObject({
      state: 'indexed',
      pages: 1,
      ocr: { pagesNeedingOcr: 1, pagesWaiting: 1, pagesRead: 0 },
    });
    expect(byName('broken.xlsx')).toMatchObject({
      state: 'failed',
      error: expect.stringContaining('Excel workbook is damaged'),
    });

    const deck = byName('powerpoint_sample.pptx');
    const image = await core.dispatch('pages.get', { documentId: deck.id, page: 2, size: 'full' });
    expect(image.ok && (image.value as PageImage).size).toBe('full');
    const opened = await openPageImage(core, deck.id, 2, 'full');
    expect(new TextDecoder().decode(opened.bytes.slice(8, 12))).toBe('WEBP');
    const text = await core.dispatch('pages.text', { documentId: deck.id, page: 2 });
    if (!text.ok) throw new Error(text.error.message);
    const lines = (text.value as PageText).lines;
    expect(lines[0]).toMatchObject({ style: 'label', text: 'Slide 2' });
    expect(lines.some((line) => line.style === 'h1')).toBe(true);
    const hits = await core.dispatch('search.query', { query: 'Second slide title', k: 3, mode: 'bm25' });
    expect(
      hits.ok && (hits.value as { hits: Array<{ documentId: string; page: number }> }).hits[0],
    ).toMatchObject({
      documentId: deck.id,
      page: 2,
    });
  });
});
