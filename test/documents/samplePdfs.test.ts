/*
 * The hand-written sample PDFs stand in for the corpus where it is absent (the packaged-app test in
 * CI): the real readers must see in them what was written.
 */
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parsePdf } from '../../src/core/documents/pdf/parsePdf';
import { PdfiumDocument } from '../../src/core/documents/pdfium/pdfiumDocument';
import { samplePdfs, writeSamplePdfs } from '../helpers/samplePdfs';
import { tempDir } from '../helpers/shared';
import { requirePdftotext } from './helpers';

let dir: Awaited<ReturnType<typeof tempDir>>;
let paths: string[];
beforeAll(async () => {
  dir = await tempDir('quire-sample-pdfs-');
  paths = await writeSamplePdfs(dir.path);
});
afterAll(() => dir.cleanup());

describe('the sample PDFs', () => {
  it('read back page by page with pdfjs, every sentence on its page', async () => {
    for (const [index, sample] of samplePdfs.entries()) {
      const parsed = await parsePdf(paths[index]!);
      expect(parsed.pages.map((page) => page.page)).toEqual(sample.pages.map((_, i) => i + 1));
      for (const [pageIndex, sentences] of sample.pages.entries()) {
        const text = parsed.pages[pageIndex]!.text;
        for (const sentence of sentences)
          expect(text, `${sample.name} p${pageIndex + 1}`).toContain(sentence);
      }
    }
  });

  it('are valid for poppler too, and PDFium draws ink on their pages', async () => {
    requirePdftotext();
    const text = execFileSync('pdftotext', ['-f', '2', '-l', '2', paths[0]!, '-'], { encoding: 'utf8' });
    expect(text).toContain('heliotrope calibration');
    const pdfium = await PdfiumDocument.open(paths[0]!);
    try {
      const { full } = pdfium.drawPage(2, 400);
      let ink = 0;
      for (const value of full.pixels) ink += 255 - value;
      expect(ink / full.pixels.length).toBeGreaterThan(0.5);
    } finally {
      pdfium.close();
    }
  });
});
