import type { PDFDocumentProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { asReaderError } from '../readerErrors';
import { openPdf } from '../pdf/openPdf';
import { PdfiumDocument } from '../pdfium/pdfiumDocument';
import { drawFullPageWithPdfjs, drawPageWithPdfjs } from './pdfjsRaster';
import type { PageRasters, RasterPage } from './raster';

/**
 * Draws a PDF's pages with PDFium, and with pdfjs when PDFium cannot open the file or draw a page:
 * pdfjs is the reader the text and page counts come from, so it has the last word on what exists.
 */
export class PdfPageDrawer {
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

  /** Draws a page at `longEdge` pixels on its long edge, without a thumbnail (for OCR). */
  async drawFull(pageNumber: number, longEdge: number): Promise<RasterPage> {
    if (this.pdfium && pageNumber <= this.pdfium.pageCount) {
      try {
        return this.pdfium.drawFullPage(pageNumber, longEdge);
      } catch {
        // Drawn by pdfjs below.
      }
    }
    const page = await (await this.pdfjs()).getPage(pageNumber);
    try {
      return await drawFullPageWithPdfjs(page, longEdge);
    } finally {
      page.cleanup();
    }
  }

  /** A page's size in points as shown (after its rotation). */
  async pageSize(pageNumber: number): Promise<{ width: number; height: number }> {
    if (this.pdfium && pageNumber <= this.pdfium.pageCount) {
      try {
        return this.pdfium.pageSize(pageNumber);
      } catch {
        // Measured by pdfjs below.
      }
    }
    const page = await (await this.pdfjs()).getPage(pageNumber);
    const { width, height } = page.getViewport({ scale: 1 });
    page.cleanup();
    return { width, height };
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
