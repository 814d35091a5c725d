import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPdf } from '../../src/core/documents/pdf/openPdf';
import { loadPdfium } from '../../src/core/documents/pdfium/loadPdfium';
import { PdfiumDocument } from '../../src/core/documents/pdfium/pdfiumDocument';
import { PageImageStore } from '../../src/core/documents/render/pageImageStore';
import { drawPageWithPdfjs } from '../../src/core/documents/render/pdfjsRaster';
import type { RasterPage } from '../../src/core/documents/render/raster';
import { renderPdfPages } from '../../src/core/documents/render/renderPdfPages';
import { quireRejection } from '../helpers/rejection';
import { corpusDir, tempDir, withoutCorpus } from '../helpers/shared';

const noCorpus = withoutCorpus('PDFium drawing of corpus PDFs');

let dir: Awaited<ReturnType<typeof tempDir>>;
let store: PageImageStore;
beforeAll(async () => {
  dir = await tempDir('quire-pdfium-');
  store = new PageImageStore(dir.path);
});
afterAll(() => dir.cleanup());

/** A raster scaled to 48 x 64 pixels, RGB, for comparing two drawings of the same page. */
async function small({ pixels, channels, width, height }: RasterPage): Promise<Buffer> {
  const image = sharp(pixels, { raw: { width, height, channels } });
  return (channels === 4 ? image.removeAlpha() : image).resize(48, 64, { fit: 'fill' }).raw().toBuffer();
}

async function drawWithPdfjs(path: string, pageNumber: number, longEdge = 1600) {
  const document = await openPdf(path);
  try {
    const page = await document.getPage(pageNumber);
    return { rasters: await drawPageWithPdfjs(page, longEdge), view: page.getViewport({ scale: 1 }) };
  } finally {
    await document.destroy();
  }
}

describe.skipIf(noCorpus)('drawing pages with PDFium', () => {
  it('reads the same page sizes as pdfjs, rotated pages included', async () => {
    const folder = join(corpusDir, 'pdfjs');
    const files = readdirSync(folder).filter((name) => name.endsWith('.pdf'));
    expect(files.length).toBeGreaterThan(10);
    for (const name of files) {
      const pdfium = await PdfiumDocument.open(join(folder, name));
      try {
        const drawn = pdfium.drawPage(1, 400);
        const { view } = await drawWithPdfjs(join(folder, name), 1);
        const scale = 400 / Math.max(view.width, view.height);
        expect(drawn.full.width, name).toBeCloseTo(view.width * scale, -0.5);
        expect(drawn.full.height, name).toBeCloseTo(view.height * scale, -0.5);
      } finally {
        pdfium.close();
      }
    }
  });

  it('draws what pdfjs draws, colours in RGB order', async () => {
    // 1234 px wide for a letter page: rows of 3702 bytes, which PDFium pads to 3704.
    const longEdge = 1597;
    for (const [name, page] of [
      ['tracemonkey.pdf', 1],
      ['calrgb.pdf', 1],
    ] as const) {
      const path = join(corpusDir, 'pdfjs', name);
      const pdfium = await PdfiumDocument.open(path);
      const fromPdfium = pdfium.drawPage(page, longEdge);
      pdfium.close();
      const fromPdfjs = (await drawWithPdfjs(path, page, longEdge)).rasters;
      expect([fromPdfium.full.width, fromPdfium.full.height]).toEqual([
        fromPdfjs.full.width,
        fromPdfjs.full.height,
      ]);
      const [a, b] = await Promise.all([small(fromPdfium.full), small(fromPdfjs.full)]);
      let difference = 0;
      for (let i = 0; i < a.length; i++) difference += Math.abs(a[i]! - b[i]!);
      // Anti-aliasing and hinting differ by 1-2 levels here; sheared rows differ by 13, swapped channels by 48.
      expect(difference / a.length, name).toBeLessThan(6);
      const ink = a.reduce((sum, value) => sum + (255 - value), 0) / a.length;
      expect(ink, `${name} is not blank`).toBeGreaterThan(2);
    }
  });

  it('asks for the password of a locked file and opens it with the right one', async () => {
    const locked = join(corpusDir, 'odd', 'pdfjs', 'issue21579.pdf');
    expect((await quireRejection(PdfiumDocument.open(locked))).code).toBe('needs_password');
    expect((await quireRejection(PdfiumDocument.open(locked, 'wrong'))).code).toBe('wrong_password');
    const opened = await PdfiumDocument.open(locked, 'pässwört');
    expect(opened.pageCount).toBe(1);
    opened.close();
  });

  it('falls back to pdfjs for files and pages PDFium cannot read', async () => {
    // A Brotli-compressed file: PDFium finds no pages in it; pdfjs reads all 25.
    const brotli = join(corpusDir, 'odd', 'pdfjs', 'Brotli-Prototype-FileA.pdf');
    const pdfium = await PdfiumDocument.open(brotli);
    expect(pdfium.pageCount).toBe(0);
    pdfium.close();
    const [brotliPage] = await renderPdfPages(brotli, { contentHash: '1a'.repeat(32), pages: [2] }, store);
    expect(brotliPage).toMatchObject({ page: 2, width: 1600 });

    // A damaged box that PDFium reads as 2^31 points tall; pdfjs gives the page a letter size.
    const damaged = join(corpusDir, 'odd', 'pdfjs', 'poppler-85140-0.pdf');
    const [damagedPage] = await renderPdfPages(damaged, { contentHash: '2b'.repeat(32), pages: [1] }, store);
    expect(damagedPage).toMatchObject({ width: Math.round((612 / 792) * 1600), height: 1600 });
  });

  it('leaves pages holding gigapixel images to pdfjs, and draws large ones itself', async () => {
    const odd = join(corpusDir, 'odd', 'ocrmypdf');
    // A 35000 x 35000 1-bit scan: PDFium would decode all of it.
    const bomb = await PdfiumDocument.open(join(odd, 'hugemono.pdf'));
    try {
      expect(() => bomb.drawPage(1, 400)).toThrow(/1225 megapixels/);
    } finally {
      bomb.close();
    }
    const [drawn] = await renderPdfPages(join(odd, 'hugemono.pdf'), { contentHash: '3c'.repeat(32) }, store);
    expect(drawn).toMatchObject({ width: 1600, height: 1600 });
    // A 9000 x 9000 scan is within reach.
    const large = await PdfiumDocument.open(join(odd, 'enormous.pdf'));
    try {
      expect(large.drawPage(1, 400).full.width).toBe(400);
    } finally {
      large.close();
    }
  });

  it('lets go of its memory after drawing a very large page', async () => {
    const path = join(corpusDir, 'pdfjs', 'tracemonkey.pdf');
    const before = await loadPdfium();
    const small = await PdfiumDocument.open(path);
    small.drawPage(1, 800);
    small.close();
    expect(await loadPdfium()).toBe(before);
    // A 30-inch page drawn 10,000 px square: a 300 MB bitmap grows PDFium's memory past what a thread keeps.
    const large = await PdfiumDocument.open(join(corpusDir, 'odd', 'ocrmypdf', 'enormous.pdf'));
    expect(large.drawPage(1, 10_000).full.height).toBe(10_000);
    large.close();
    const after = await loadPdfium();
    expect(after).not.toBe(before);
    expect(after.runtime.HEAPU8.byteLength).toBeLessThan(before.runtime.HEAPU8.byteLength);
  });
});
