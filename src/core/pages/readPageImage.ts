import { createHash } from 'node:crypto';
import { realpath } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import type { PageImageSize } from '../../shared/domain/pageImageAddress';
import type { PageImage } from '../../shared/domain/search';
import { QuireError } from '../../shared/errors';
import { isInside } from '../common/paths';
import type { CoreServices } from '../coreServices';
import type { PageImageRef } from '../documents/types';

type PageImageCore = Pick<CoreServices, 'library' | 'ingestion' | 'index' | 'pageImages'>;

/** A page image's bytes with what a viewer or a vision model needs beside them. */
export interface PageImageFile {
  image: PageImage;
  bytes: Uint8Array;
  contentType: 'image/webp';
}

/*
 * The one way to a page image, for the viewer (pages.get, then the app's scheme or the server's route)
 * and for the agent's vision tool alike. Asking for a page of a file still queued moves that file first.
 */

/** What the viewer needs to show a page: its size in points and the version that addresses its image. */
export async function readPageImage(
  core: PageImageCore,
  documentId: string,
  page: number,
  size: PageImageSize,
  signal?: AbortSignal,
): Promise<PageImage> {
  return (await findPageImage(core, documentId, page, size, signal)).image;
}

/**
 * A page image's bytes, for the app's scheme, the server's route and the agent. `version`, from the
 * address pages.get handed out, lets a page just described skip the index's lookup.
 */
export async function openPageImage(
  core: PageImageCore,
  documentId: string,
  page: number,
  size: PageImageSize,
  version?: string,
): Promise<PageImageFile> {
  const key = `${documentId}/${page}/${size}/${version ?? ''}`;
  const recent = version && stillInLibrary(core, documentId) ? recentOf(core).get(key) : undefined;
  if (recent) {
    const bytes = await readStored(core, recent.file).catch(() => null);
    if (bytes) return { image: recent.image, bytes, contentType: 'image/webp' };
    recentOf(core).delete(key);
  }
  const { image, file, name } = await findPageImage(core, documentId, page, size);
  const bytes = await readStored(core, file).catch(() => {
    throw new QuireError('not_found', `The image of page ${page} is missing; re-index ${name}.`);
  });
  return { image, bytes, contentType: 'image/webp' };
}

/** A stored image's bytes; the path comes from the index, never from a caller, and must stay in the store. */
async function readStored(core: PageImageCore, file: string): Promise<Uint8Array> {
  const rootPath = resolve(core.pageImages.root);
  const absolute = resolve(core.pageImages.absolutePath(file));
  if (!isInside(absolute, rootPath)) throw new Error('outside the page-image store');
  const bytes = await core.pageImages.read(file);
  const [root, real] = await Promise.all([realpath(rootPath), realpath(absolute)]);
  if (!isInside(real, root)) throw new Error('outside the page-image store');
  return bytes;
}

/**
 * The addresses pages.get handed out lately, with the stored file each names: a cache of the index's
 * page records (a new drawing has a new version, so an entry never names another drawing).
 */
const RECENT_ADDRESSES = 512;
const recentByStore = new WeakMap<object, Map<string, { image: PageImage; file: string }>>();

function recentOf(core: PageImageCore): Map<string, { image: PageImage; file: string }> {
  let recent = recentByStore.get(core.pageImages);
  if (!recent) {
    recent = new Map();
    recentByStore.set(core.pageImages, recent);
  }
  return recent;
}

function remember(core: PageImageCore, image: PageImage, file: string): void {
  const recent = recentOf(core);
  recent.set(`${image.documentId}/${image.page}/${image.size}/${image.version}`, { image, file });
  if (recent.size > RECENT_ADDRESSES) recent.delete(recent.keys().next().value!);
}

/** The cache answers only for a document the library (or the shared index) still holds, indexed. */
function stillInLibrary(core: PageImageCore, documentId: string): boolean {
  const doc = core.library.document(documentId) ?? core.index.documents.get(documentId);
  return doc?.state === 'indexed';
}

async function findPageImage(
  core: PageImageCore,
  documentId: string,
  page: number,
  size: PageImageSize,
  signal?: AbortSignal,
): Promise<{ image: PageImage; file: string; name: string }> {
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
  // The document's own page count bounds the page, however long the file is.
  const pages = doc ? doc.pages : (shared?.pages ?? null);
  if (pages !== null && page > pages) {
    throw new QuireError('not_found', `Page ${page} does not exist: ${name} has ${pages} pages.`);
  }
  const stored = await core.index.content.page(documentId, page);
  // Images are drawn after every file's text; a page opened before its turn is drawn now.
  const drawn = stored.image ?? (doc ? await core.ingestion.drawPageNow(documentId, page, signal) : null);
  if (!drawn) throw new QuireError('not_found', `Page ${page} of ${name} has no image.`);
  const file = size === 'thumbnail' ? drawn.thumbnail : drawn.full;
  const image: PageImage = {
    documentId,
    page,
    pageWidth: stored.width,
    pageHeight: stored.height,
    size,
    version: versionOf(drawn, file),
    textSource: stored.textSource,
  };
  remember(core, image, file);
  return { image, file, name };
}

/** Stored paths hold the content hash and the drawing's size: a new drawing gets a new version. */
function versionOf(image: Pick<PageImageRef, 'width' | 'height'>, file: string): string {
  return createHash('sha256').update(`${file}\n${image.width}x${image.height}`).digest('hex').slice(0, 16);
}
