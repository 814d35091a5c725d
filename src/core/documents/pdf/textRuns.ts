import type { PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { TextItem } from 'pdfjs-dist/types/src/display/api';
import { loadPdfJs } from './loadPdfJs';

/** One run of text as pdfjs reports it, placed on the page in points, origin top-left, y down. */
export interface TextRun {
  text: string;
  x: number;
  y: number;
  width: number;
  height: number;
  /** Baseline y, for grouping runs into lines. */
  baseline: number;
  fontSize: number;
  rtl: boolean;
  vertical: boolean;
}

export interface PageRuns {
  width: number;
  height: number;
  runs: TextRun[];
}

// Share of the font size above and below the baseline: pdfjs's ascent/descent are per font and often 0.
// PDFium-read runs use the same, so lines and highlight boxes come out alike whichever engine read them.
export const ASCENT = 0.8;
export const DESCENT = 0.2;

/** Reads a page's text items in content-stream order and places them in page space. */
export async function readPageRuns(page: PDFPageProxy): Promise<PageRuns> {
  const { Util } = await loadPdfJs();
  const viewport = page.getViewport({ scale: 1 });
  const content = await page.getTextContent();
  const runs: TextRun[] = [];
  for (const item of content.items) {
    if (!('str' in item) || item.str === '') continue;
    // NFKC folds Arabic presentation forms and ligatures (fi, ffl) into the letters people search for.
    const text = item.str.normalize('NFKC');
    if (text.trim() === '' && item.width <= 0) continue;
    const [a, b, c, d, e, f] = Util.transform(viewport.transform, item.transform) as number[];
    const fontSize = Math.hypot(c ?? 0, d ?? 0) || Math.hypot(a ?? 0, b ?? 0) || item.height;
    const vertical = content.styles[item.fontName]?.vertical === true || item.dir === 'ttb';
    runs.push({
      text,
      ...clipToPage(
        runBox(item, [a ?? 0, b ?? 0, c ?? 0, d ?? 0, e ?? 0, f ?? 0], fontSize, vertical),
        viewport.width,
        viewport.height,
      ),
      baseline: f ?? 0,
      fontSize,
      rtl: item.dir === 'rtl',
      vertical,
    });
  }
  return { width: viewport.width, height: viewport.height, runs };
}

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Keeps boxes on the page: runs padded with spaces or set past the crop box would point off-page. */
export function clipToPage(box: Box, width: number, height: number): Box {
  const x = Math.min(Math.max(box.x, 0), width);
  const y = Math.min(Math.max(box.y, 0), height);
  return {
    x,
    y,
    width: Math.max(0, Math.min(box.x + box.width, width) - x),
    height: Math.max(0, Math.min(box.y + box.height, height) - y),
  };
}

type Matrix = [number, number, number, number, number, number];

function runBox(item: TextItem, [a, b, c, d, e, f]: Matrix, fontSize: number, vertical: boolean) {
  if (vertical) return { x: e - item.width / 2, y: f, width: item.width, height: item.height };
  // Corners of the run: along the baseline by its width, up and down by the font's extent.
  const alongLength = Math.hypot(a, b) || 1;
  const upLength = Math.hypot(c, d) || 1;
  const along = [(a / alongLength) * item.width, (b / alongLength) * item.width];
  const up = [(c / upLength) * fontSize, (d / upLength) * fontSize];
  const xs: number[] = [];
  const ys: number[] = [];
  for (const t of [0, 1]) {
    for (const s of [ASCENT, -DESCENT]) {
      xs.push(e + (along[0] ?? 0) * t + (up[0] ?? 0) * s);
      ys.push(f + (along[1] ?? 0) * t + (up[1] ?? 0) * s);
    }
  }
  const x = Math.min(...xs);
  const y = Math.min(...ys);
  return { x, y, width: Math.max(...xs) - x, height: Math.max(...ys) - y };
}
