import type { DocumentKind } from '../../../shared/domain/library';
import { QuireError } from '../../../shared/errors';
import { asReaderError } from '../parseDocument';
import type { PageImageRef } from '../types';
import { drawLaidOutPage } from './laidOutRaster';
import { laidOutPages } from './laidOutPages';
import type { PageImageStore } from './pageImageStore';
import { DEFAULT_LONG_EDGE } from './raster';

export interface LaidOutRenderOptions {
  kind: DocumentKind;
  contentHash: string;
  /** 1-based pages; every page when absent. */
  pages?: number[];
  longEdge?: number;
  signal?: AbortSignal;
}

/** Draws pages Quire laid out (Word, slides, sheets, web pages...) into the store, skipping stored ones. */
export async function renderLaidOutPages(
  path: string,
  options: LaidOutRenderOptions,
  store: PageImageStore,
): Promise<PageImageRef[]> {
  const longEdge = options.longEdge ?? DEFAULT_LONG_EDGE;
  let pages;
  try {
    pages = await laidOutPages(path, options.kind, options.signal);
  } catch (error) {
    throw asReaderError(error, path);
  }
  const wanted = options.pages ?? pages.map((_, i) => i + 1);
  const refs: PageImageRef[] = [];
  for (const pageNumber of wanted) {
    options.signal?.throwIfAborted();
    const page = pages[pageNumber - 1];
    if (!page) {
      throw new QuireError(
        'invalid_input',
        `Page ${pageNumber} does not exist: the document has ${pages.length} pages.`,
      );
    }
    const stored = await store.get(options.contentHash, pageNumber, longEdge);
    refs.push(
      stored ?? (await store.put(options.contentHash, pageNumber, longEdge, drawLaidOutPage(page, longEdge))),
    );
  }
  return refs;
}
