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
}

export interface DrawnPageImages {
  images: PageImageRef[];
  /** Why some pages have no image, for the user; null when every page was drawn. */
  problem: string | null;
}

/**
 * Draws every page of a document into the store. A page that cannot be drawn, or drawing that outlasts
 * its time limit, keeps the pages drawn so far and says how many are missing and why.
 */
export async function drawPageImages(
  pool: Pick<DocumentPool, 'render'>,
  store: PageImageStore,
  request: PageImageRequest,
): Promise<DrawnPageImages> {
  const { path, kind, contentHash, pageCount, longEdge, password, signal } = request;
  const pages = Array.from({ length: pageCount }, (_, i) => i + 1);
  try {
    const options = { kind, contentHash, signal, longEdge, pages, ...(password ? { password } : {}) };
    return { images: await pool.render(path, options, store), problem: null };
  } catch (error) {
    const info = toErrorInfo(error);
    if (signal.aborted || !FAILURES_KEEPING_DRAWN_PAGES.has(info.code)) throw error;
    const stored = await Promise.all(pages.map((page) => store.get(contentHash, page, longEdge)));
    const images = stored.filter((image): image is PageImageRef => image !== null);
    return {
      images,
      problem: `${pageCount - images.length} of ${pageCount} page images could not be drawn: ${info.message}`,
    };
  }
}
