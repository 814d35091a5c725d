import { QuireError } from '../../../shared/errors';
import type { DrawOptions } from '../readers/formatReader';
import { asReaderError } from '../readerErrors';
import type { PageImageRef } from '../types';
import { drawLaidOutPage, type DrawablePage } from './laidOutRaster';
import type { PageImageStore } from './pageImageStore';
import { DEFAULT_LONG_EDGE } from './raster';

/** Draws pages Quire laid out (Word, slides, sheets, web pages...) into the store, skipping stored ones. */
export async function renderLaidOutPages(
  path: string,
  layOut: (path: string, signal?: AbortSignal) => Promise<DrawablePage[]>,
  options: DrawOptions,
  store: PageImageStore,
): Promise<PageImageRef[]> {
  const longEdge = options.longEdge ?? DEFAULT_LONG_EDGE;
  let pages;
  try {
    pages = await layOut(path, options.signal);
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
