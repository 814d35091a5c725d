import type { PDFDocumentProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { QuireError } from '../../../shared/errors';
import { asReaderError } from '../parseDocument';
import { openPdf } from '../pdf/openPdf';
import { PdfiumDocument } from '../pdfium/pdfiumDocument';
import type { PageImageRef } from '../types';
import type { PageImageStore } from './pageImageStore';
import { drawPageWithPdfjs } from './pdfjsRaster';
import { DEFAULT_LONG_EDGE, type PageRasters } from './raster';

export interface RenderOptions {
  contentHash: string;
  /** 1-based pages; every page when absent. */
  pages?: number[];
  password?: string;
  longEdge?: number;
  signal?: AbortSignal;
}

/** The page count of a PDF, with the same error mapping as rendering. */
export async function countPdfPages(path: string, password?: string): Promise<number> {
  let document;
  try {
    document = await openPdf(path, password === undefined ? {} : { password });
  } catch (error) {
    throw asReaderError(error, path);
  }
  const pages = document.numPages;
  await document.destroy().catch(() => undefined);
  return pages;
}

/**
 * Draws a PDF's pages with PDFium, and with pdfjs when PDFium cannot open the file or draw a page:
 * pdfjs is the reader the text and page counts come from, so it has the last word on what exists.
 */
class PdfPageDrawer {
  private pdfjsDocument: Promise<PDFDocumentProxy> | undefined;

  private constructor(
    private readonly path: string,
    private readonly password: string | undefined,
    private readonly pdfium: PdfiumDocument | null,
  ) {}

  static async open(path: string, password: string | undefined): Promise<PdfPageDrawer> {
    const pdfium = await PdfiumDocument.open(path, password).catch(() => null);
    const drawer = new PdfPageDrawer(path, password, pdfium);
    // Without PDFium, pdfjs opens now, so a locked or broken file fails before any page is tried.
    if (!pdfium) await drawer.pdfjs();
    return drawer;
  }

  async hasPage(pageNumber: number): Promise<boolean> {
    if (!Number.isInteger(pageNumber) || pageNumber < 1) return false;
    if (this.pdfium && pageNumber <= this.pdfium.pageCount) return true;
    return pageNumber <= (await this.pdfjs()).numPages;
  }

  async pageCount(): Promise<number> {
    return (await this.pdfjs()).numPages;
  }

  async draw(pageNumber: number, longEdge: number): Promise<PageRasters> {
    if (this.pdfium && pageNumber <= this.pdfium.pageCount) {
      try {
        return this.pdfium.drawPage(pageNumber, longEdge);
      } catch {
        // Drawn by pdfjs below.
      }
    }
    const page = await (await this.pdfjs()).getPage(pageNumber);
    try {
      return await drawPageWithPdfjs(page, longEdge);
    } finally {
      page.cleanup();
    }
  }

  async close(): Promise<void> {
    this.pdfium?.close();
    const pdfjs = await this.pdfjsDocument?.catch(() => undefined);
    await pdfjs?.destroy().catch(() => undefined);
  }

  private pdfjs(): Promise<PDFDocumentProxy> {
    this.pdfjsDocument ??= openPdf(
      this.path,
      this.password === undefined ? {} : { password: this.password },
    ).catch((error: unknown) => {
      throw asReaderError(error, this.path);
    });
    return this.pdfjsDocument;
  }
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
