import { QuireError } from '../../../shared/errors';
import type { PageImageRef } from '../types';
import type { PageImageStore } from './pageImageStore';
import { PdfPageDrawer } from './pdfPageDrawer';
import { DEFAULT_LONG_EDGE } from './raster';

export interface RenderOptions {
  contentHash: string;
  /** 1-based pages; every page when absent. */
  pages?: number[];
  password?: string;
  longEdge?: number;
  signal?: AbortSignal;
}

/** Renders pages into the store, skipping those already there (same content, same size). */
export async function renderPdfPages(
  path: string,
  options: RenderOptions,
  store: PageImageStore,
): Promise<PageImageRef[]> {
  const longEdge = options.longEdge ?? DEFAULT_LONG_EDGE;
  if (!Number.isInteger(longEdge) || longEdge < 16 || longEdge > 10_000) {
    throw new QuireError('invalid_input', `The image size must be 16 to 10000 pixels, not ${longEdge}.`);
  }
  const drawer = await PdfPageDrawer.open(path, options.password);
  try {
    const pages = options.pages ?? Array.from({ length: await drawer.pageCount() }, (_, i) => i + 1);
    const refs: PageImageRef[] = [];
    // The encode of one page (on libuv's threads) overlaps the drawing of the next; one at a time,
    // so at most two pages' pixels are held.
    let encoding: Promise<void> = Promise.resolve();
    let encodeFailure: { error: unknown } | null = null;
    const encoded = async () => {
      await encoding;
      if (encodeFailure) throw encodeFailure.error;
    };
    for (const [at, pageNumber] of pages.entries()) {
      options.signal?.throwIfAborted();
      if (!(await drawer.hasPage(pageNumber))) {
        throw new QuireError(
          'invalid_input',
          `Page ${pageNumber} does not exist: the PDF has ${await drawer.pageCount()} pages.`,
        );
      }
      const stored = await store.get(options.contentHash, pageNumber, longEdge);
      if (stored) {
        refs[at] = stored;
        continue;
      }
      const rasters = await drawer.draw(pageNumber, longEdge).catch((error: unknown) => {
        const reason = error instanceof Error ? error.message : String(error);
        throw new QuireError('unsupported', `Page ${pageNumber} of this PDF cannot be drawn: ${reason}`, {
          page: pageNumber,
        });
      });
      await encoded();
      // Caught here so a failure while the next page draws is not an unhandled rejection.
      encoding = store.put(options.contentHash, pageNumber, longEdge, rasters).then(
        (ref) => void (refs[at] = ref),
        (error: unknown) => void (encodeFailure = { error }),
      );
    }
    await encoded();
    return refs;
  } finally {
    await drawer.close();
  }
}
