import { availableParallelism } from 'node:os';
import { QuireError, toErrorInfo } from '../../shared/errors';
import { createLimiter } from '../common/limit';
import type { DocumentKind, DocumentState } from '../../shared/domain/library';
import { openPdf } from '../documents/pdf/openPdf';

export interface PageCount {
  pages: number | null;
  state: Extract<DocumentState, 'listed' | 'needsPassword' | 'failed'>;
  error: string | null;
}

/** A file listed without being opened: its pages are counted when it is read. */
export const NOT_COUNTED: PageCount = { pages: null, state: 'listed', error: null };

/**
 * Reads how many pages a document has without parsing its content, for a library no ingestion reads
 * (`quire library add`). A PDF pdfjs cannot open is reported with the reason, never thrown: one
 * broken file must not stop a scan.
 */
export async function countPages(path: string, kind: DocumentKind): Promise<PageCount> {
  if (kind !== 'pdf') return NOT_COUNTED;
  try {
    const pdf = await openPdf(path);
    try {
      return { pages: pdf.numPages, state: 'listed', error: null };
    } finally {
      await pdf.destroy();
    }
  } catch (error) {
    const info = toErrorInfo(error);
    if (error instanceof QuireError && error.code === 'needs_password') {
      return { pages: null, state: 'needsPassword', error: info.message };
    }
    return { pages: null, state: 'failed', error: info.message };
  }
}

/** `countPages` with at most a few files open at once, however many a scan finds. */
export function limitedPageCounter(): typeof countPages {
  const limit = createLimiter(Math.max(1, Math.min(4, availableParallelism())));
  return (path, kind) => limit(() => countPages(path, kind));
}
