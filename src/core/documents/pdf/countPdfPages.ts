import { asReaderError } from '../readerErrors';
import { openPdf } from './openPdf';

/** The page count of a PDF, with the same error mapping as rendering. */
export async function countPdfPages(path: string, password?: string): Promise<number> {
  let document;
  try {
    document = await openPdf(path, password === undefined ? {} : { password });
  } catch (error) {
    throw asReaderError(error, path);
  }
  const pages = document.numPages;
  await document.destroy().catch(() => undefined);
  return pages;
}
