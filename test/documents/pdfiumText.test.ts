import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { groupLines } from '../../src/core/documents/layout/lines';
import { openPdf } from '../../src/core/documents/pdf/openPdf';
import { parsePdf } from '../../src/core/documents/pdf/parsePdf';
import { openPdfPageReader } from '../../src/core/documents/pdf/pdfPageReaders';
import { readPageRuns } from '../../src/core/documents/pdf/textRuns';
import { corpusDir, withoutCorpus } from '../helpers/shared';
import { coverage, distinctWords, pdftotextPage, requirePdftotext } from './helpers';

const noCorpus = withoutCorpus('PDFium text of corpus PDFs');

const paper = join(corpusDir, 'pdfjs', 'tracemonkey.pdf');

async function pdfjsLines(path: string, page: number) {
  const document = await openPdf(path);
  try {
    return groupLines((await readPageRuns(await document.getPage(page))).runs);
  } finally {
    await document.destroy();
  }
}

async function pdfiumRead(path: string, page: number) {
  const reader = await openPdfPageReader(path, undefined);
  try {
    return await reader.readRuns(page, { measure: true });
  } finally {
    await reader.close();
  }
}

describe.skipIf(noCorpus)('text read with PDFium', () => {
  beforeAll(() => requirePdftotext());

  it('finds the words pdftotext finds on every page of a paper, and says PDFium read them', async () => {
    const parsed = await parsePdf(paper);
    expect(parsed.pages).toHaveLength(14);
    for (const page of parsed.pages) {
      expect(page.textSource).toEqual({ method: 'layer', engine: 'pdfium' });
      const poppler = distinctWords(pdftotextPage(paper, page.page));
      expect(coverage(poppler, distinctWords(page.text)), `page ${page.page}`).toBeGreaterThanOrEqual(0.95);
    }
  });

  it('keeps a hyphen that ends a line, and places lines where pdfjs places them', async () => {
    const read = await pdfiumRead(paper, 1);
    expect(read.engine).toBe('pdfium');
    expect(read.content).not.toBeNull();
    const lines = groupLines(read.runs);
    const text = lines.map((line) => line.text).join('\n');
    // PDFium marks a line-ending hyphen with a code of its own; the page shows a hyphen.
    expect(text).toContain('more difficult to com-\npile');
    expect([...text].some((char) => char.charCodeAt(0) < 0x09)).toBe(false);
    const reference = await pdfjsLines(paper, 1);
    for (const wanted of ['Abstract', 'Languages']) {
      const ours = lines.find((line) => line.text === wanted)!.box;
      const theirs = reference.find((line) => line.text === wanted)!.box;
      expect(Math.abs(ours.x - theirs.x)).toBeLessThan(1);
      expect(Math.abs(ours.y - theirs.y)).toBeLessThan(1);
      expect(Math.abs(ours.height - theirs.height)).toBeLessThan(1);
    }
  });

  it('places the text of a page turned by /Rotate as the page is shown', async () => {
    const path = join(corpusDir, 'pdfjs', 'rotation.pdf');
    const read = await pdfiumRead(path, 2);
    expect([read.width, read.height]).toEqual([792, 612]);
    const ours = groupLines(read.runs);
    const theirs = await pdfjsLines(path, 2);
    expect(ours.map((line) => line.text)).toEqual(theirs.map((line) => line.text));
    ours.forEach((line, at) => {
      expect(Math.abs(line.box.x - theirs[at]!.box.x)).toBeLessThan(1);
      expect(Math.abs(line.box.y - theirs[at]!.box.y)).toBeLessThan(1);
    });
  });

  it('reads with pdfjs a file whose pages PDFium cannot find, and says so', async () => {
    // Its cross-reference stream is Brotli-compressed: PDFium opens it but finds no page.
    const path = join(corpusDir, 'odd', 'pdfjs', 'Brotli-Prototype-FileA.pdf');
    const parsed = await parsePdf(path);
    expect(parsed.pages.length).toBeGreaterThan(0);
    expect(parsed.pages.find((page) => page.text.trim() !== '')?.textSource?.engine).toBe('pdfjs');
  });
});
