import { QuireError, toErrorInfo } from '../../shared/errors';
import type { DocumentKind, DocumentState } from '../../shared/domain/library';
import { openPdf } from '../documents/pdf/openPdf';

export interface PageCount {
  pages: number | null;
  state: Extract<DocumentState, 'listed' | 'needsPassword' | 'failed'>;
  error: string | null;
}

/**
 * Reads how many pages a document has without parsing its content. A PDF pdfjs cannot open is reported
 * with the reason, never thrown: one broken file must not stop a scan.
 */
export async function countPages(path: string, kind: DocumentKind): Promise<PageCount> {
  if (kind !== 'pdf') return { pages: null, state: 'listed', error: null };
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
