import { basename } from 'node:path';
import type { PageImage } from '../../shared/domain/search';
import { QuireError } from '../../shared/errors';
import type { CoreServices } from '../coreServices';

/** A page image as a data URL; asking for a page of a file still queued moves that file first. */
export async function readPageImage(
  core: Pick<CoreServices, 'library' | 'ingestion' | 'index' | 'pageImages'>,
  documentId: string,
  page: number,
  size: 'full' | 'thumbnail',
): Promise<PageImage> {
  const doc = core.library.document(documentId);
  // A shared library read from another desktop has no local record of its files: the index's own
  // record is enough to show a stored page, and there is no original file to draw one from.
  const shared = doc ? null : core.index.documents.get(documentId);
  if (!doc && !shared) throw new QuireError('not_found', 'That document is not in the library.');
  const name = doc?.relativePath ?? basename(shared?.path ?? documentId);
  if (doc && doc.state !== 'indexed') {
    core.ingestion.prioritize(documentId);
    throw new QuireError('not_found', `${name} is not indexed yet; it is next in line.`);
  }
  if (shared && shared.state !== 'indexed') {
    throw new QuireError('not_found', `${name} is not indexed yet in the shared library.`);
  }
  const stored = await core.index.content.page(documentId, page);
  // Images are drawn after every file's text; a page opened before its turn is drawn now.
  const image = stored.image ?? (doc ? await core.ingestion.drawPageNow(documentId, page) : null);
  if (!image) throw new QuireError('not_found', `Page ${page} of ${name} has no image.`);
  const file = size === 'thumbnail' ? image.thumbnail : image.full;
  const bytes = await core.pageImages.read(file).catch(() => {
    throw new QuireError('not_found', `The image of page ${page} is missing; re-index ${name}.`);
  });
  return {
    documentId,
    page,
    pageWidth: stored.width,
    pageHeight: stored.height,
    dataUrl: `data:image/webp;base64,${Buffer.from(bytes).toString('base64')}`,
    textSource: stored.textSource,
  };
}
