import { measurePageContent, type PageContent } from './pageContent';
import { PdfiumDocument } from './pdfiumDocument';

/**
 * PDFium's measure of each page (or of `pages`): images and visible or invisible text. An empty map
 * when PDFium cannot open the file; then a layer is judged by its text alone.
 */
export async function measurePdfPages(
  path: string,
  password: string | undefined,
  pages?: readonly number[],
): Promise<Map<number, PageContent>> {
  const measured = new Map<number, PageContent>();
  const document = await PdfiumDocument.open(path, password).catch(() => null);
  if (!document) return measured;
  try {
    const wanted = pages ?? Array.from({ length: document.pageCount }, (_, i) => i + 1);
    for (const page of wanted) {
      if (page < 1 || page > document.pageCount) continue;
      try {
        measured.set(
          page,
          document.withPage(page, (handle) => measurePageContent(document.engine, handle)),
        );
      } catch {
        // This page is judged by its text alone.
      }
    }
  } finally {
    document.close();
  }
  return measured;
}
