import type { DocumentKind } from '../../shared/domain/library';
import { toErrorInfo, type ErrorCode } from '../../shared/errors';
import type { DocumentPool } from '../documents/pool/documentPool';
import type { PageImageStore } from '../documents/render/pageImageStore';
import type { PageImageRef } from '../documents/types';

/** Drawing failures that cost only the images still missing; others (a full disk, a password) are thrown. */
const FAILURES_KEEPING_DRAWN_PAGES = new Set<ErrorCode>(['unsupported', 'timeout', 'internal']);

export interface PageImageRequest {
  path: string;
  kind: DocumentKind;
  contentHash: string;
  pageCount: number;
  longEdge: number;
  password?: string;
  signal: AbortSignal;
  /** Pages that repeat an earlier page (the same page object): they get its image, not one of their own. */
  repeats?: ReadonlyMap<number, number>;
}

export interface DrawnPageImages {
  images: PageImageRef[];
  /** Why some pages have no image, for the user; null when every page was drawn. */
  problem: string | null;
}

/**
 * Draws every page of a document into the store, each page object once: a repeated page gets the image
 * of the page it repeats. A page that cannot be drawn, or drawing that outlasts its time limit, keeps
 * the pages drawn so far and says how many are missing and why.
 */
export async function drawPageImages(
  pool: Pick<DocumentPool, 'render'>,
  store: PageImageStore,
  request: PageImageRequest,
): Promise<DrawnPageImages> {
  const { path, kind, contentHash, pageCount, longEdge, password, signal } = request;
  const repeats = request.repeats ?? new Map<number, number>();
  const pages = Array.from({ length: pageCount }, (_, i) => i + 1).filter((page) => !repeats.has(page));
  try {
    const options = { kind, contentHash, signal, longEdge, pages, ...(password ? { password } : {}) };
    return { images: withRepeats(await pool.render(path, options, store), repeats), problem: null };
  } catch (error) {
    const info = toErrorInfo(error);
    if (signal.aborted || !FAILURES_KEEPING_DRAWN_PAGES.has(info.code)) throw error;
    const stored = await Promise.all(pages.map((page) => store.get(contentHash, page, longEdge)));
    const images = withRepeats(
      stored.filter((image): image is PageImageRef => image !== null),
      repeats,
    );
    return {
      images,
      problem: `${pageCount - images.length} of ${pageCount} page images could not be drawn: ${info.message}`,
    };
  }
}

/** The drawn images, and for each repeated page the image of the page it repeats (when that was drawn). */
function withRepeats(images: PageImageRef[], repeats: ReadonlyMap<number, number>): PageImageRef[] {
  if (repeats.size === 0) return images;
  const byPage = new Map(images.map((image) => [image.page, image]));
  const copies: PageImageRef[] = [];
  for (const [page, first] of repeats) {
    const image = byPage.get(first);
    if (image) copies.push({ ...image, page });
  }
  return [...images, ...copies];
}
