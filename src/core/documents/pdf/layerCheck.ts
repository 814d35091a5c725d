import { measurePdfPages } from '../pdfium/measurePdfPages';
import { contentReasonFor } from './textLayerCheck';

/**
 * Of `pages`, judged sound by their text alone while the file was first read, those PDFium's measure
 * shows need OCR after all (an invisible layer over a scan, a picture with a caption). Measuring
 * loads every page in PDFium, which costs about as much as reading its text, so it runs after the
 * file is searchable rather than before.
 */
export async function pagesFailingLayerCheck(
  path: string,
  password: string | undefined,
  pages: readonly number[],
): Promise<number[]> {
  const measured = await measurePdfPages(path, password, pages);
  const failing: number[] = [];
  for (const [page, content] of measured) if (contentReasonFor(content) !== null) failing.push(page);
  return failing.sort((a, b) => a - b);
}
