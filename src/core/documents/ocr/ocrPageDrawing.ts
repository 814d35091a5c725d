import type { RasterPage } from '../render/raster';
import { READING_DPI } from './recognizePage';
import { OCR_DPI } from './tesseractEngine';
import type { OcrPageSource } from './types';

/*
 * The sizes pages are drawn at for OCR. Apart from the PDF reader's modules, so a process that only
 * reads pages (the OCR bench's engine) does not load PDFium and pdfjs.
 */

/**
 * Pages are drawn for OCR at the resolution they are read at (READING_DPI), and at most about 300
 * dpi when their print is small; a huge page (a poster, a 2400 dpi scan's sheet) is capped at this
 * long edge, which keeps a page under ~25 megapixels and a few hundred MB of work.
 */
export const MAX_OCR_LONG_EDGE = 6000;

/** The long edge, in pixels, a page of this size (points) is drawn at for OCR at `dpi`. */
export function ocrLongEdge(widthPt: number, heightPt: number, dpi: number = OCR_DPI): number {
  const edge = Math.max(widthPt, heightPt);
  if (!(edge > 0)) return MAX_OCR_LONG_EDGE;
  return Math.max(16, Math.min(MAX_OCR_LONG_EDGE, Math.round((edge / 72) * dpi)));
}

/**
 * A page drawn for OCR at the resolution it is read at (a quarter of the pixels of 300 dpi, in
 * PDFium's memory and here), with the way to draw it at 300 dpi for print too small for that.
 */
export async function drawForOcr(
  source: OcrPageSource,
  page: number,
): Promise<{
  raster: RasterPage;
  dpi: number;
  drawFiner: () => Promise<{ raster: RasterPage; dpi: number }>;
}> {
  const size = await source.pageSize(page);
  const draw = async (dpi: number) => {
    const raster = await source.drawFull(page, ocrLongEdge(size.width, size.height, dpi));
    return { raster, dpi: (raster.width / Math.max(1, size.width)) * 72 };
  };
  return { ...(await draw(READING_DPI)), drawFiner: () => draw(OCR_DPI) };
}
