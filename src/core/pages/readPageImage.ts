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
  if (!doc) throw new QuireError('not_found', 'That document is not in the library.');
  if (doc.state !== 'indexed') {
    core.ingestion.prioritize(documentId);
    throw new QuireError('not_found', `${doc.relativePath} is not indexed yet; it is next in line.`);
  }
  const stored = await core.index.content.page(documentId, page);
  // Images are drawn after every file's text; a page opened before its turn is drawn now.
  const image = stored.image ?? (await core.ingestion.drawPageNow(documentId, page));
  if (!image) throw new QuireError('not_found', `Page ${page} of ${doc.relativePath} has no image.`);
  const file = size === 'thumbnail' ? image.thumbnail : image.full;
  const bytes = await core.pageImages.read(file).catch(() => {
    throw new QuireError('not_found', `The image of page ${page} is missing; re-index ${doc.relativePath}.`);
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
