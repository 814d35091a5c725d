import type { PageText } from '../../shared/domain/pages';
import { QuireError } from '../../shared/errors';
import { laysOutPages } from '../documents/readers/formatReaders';
import type { CoreServices } from '../coreServices';

/**
 * A page Quire laid out, as formatted text with the same boxes as its image: what the viewer shows
 * when the image is not there (not drawn yet, or it could not be drawn).
 */
export async function readPageText(
  core: Pick<CoreServices, 'library' | 'ingestion' | 'index'>,
  documentId: string,
  page: number,
  signal?: AbortSignal,
): Promise<PageText> {
  const doc = core.library.document(documentId);
  if (!doc) throw new QuireError('not_found', 'That document is not in the library.');
  if (doc.state !== 'indexed') {
    core.ingestion.prioritize(documentId);
    throw new QuireError('not_found', `${doc.relativePath} is not indexed yet; it is next in line.`);
  }
  if (!laysOutPages(doc.kind)) {
    throw new QuireError('not_found', `Page ${page} of ${doc.relativePath} is shown as an image only.`);
  }
  const stored = await core.index.content.page(documentId, page);
  const laidOut = await core.ingestion.pageLayout(documentId, page, signal);
  return {
    documentId,
    page,
    pageWidth: laidOut.width,
    pageHeight: laidOut.height,
    lines: laidOut.lines.map(({ style, text, box, marker, cells }) => ({
      style,
      text,
      box,
      ...(marker === undefined ? {} : { marker }),
      ...(cells === undefined ? {} : { cells }),
    })),
    reason: stored.image ? 'Shown as text.' : 'The page image is not drawn yet: shown as text.',
  };
}
