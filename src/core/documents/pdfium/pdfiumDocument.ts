import { readFile } from 'node:fs/promises';
import { QuireError } from '../../../shared/errors';
import { preparePassword } from '../pdf/openPdf';
import { rasterSizes, type PageRasters, type RasterPage } from '../render/raster';
import { discardPdfium, loadPdfium, type Pdfium } from './loadPdfium';

// FPDF_GetLastError codes.
const PDFIUM_ERROR_PASSWORD = 4;
const PDFIUM_ERROR_SECURITY = 5;
// 24-bit pixels; with the reverse-byte-order render flag they come out RGB rather than BGR.
const FPDFBitmap_BGR = 2;
// Render flags: draw annotations; reverse the byte order.
const FPDF_ANNOT = 0x01;
const FPDF_REVERSE_BYTE_ORDER = 0x10;
const WHITE = 0xffffffff;
// Far past the PDF limit of 14,400 units a side even with a large UserUnit: a size beyond it is a misread box.
const MAX_PAGE_POINTS = 100_000;
// FPDFPageObj_GetType values.
const FPDF_PAGEOBJ_IMAGE = 3;
const FPDF_PAGEOBJ_FORM = 5;
// PDFium decodes an image whole, at about 150 megapixels a second here, but in bounded memory: an
// 81 MP scan takes 2 s. Past this the page goes to pdfjs, which leaves images over 50 MP out.
const MAX_IMAGE_PIXELS = 250_000_000;
// Form XObjects nest; deeper than this is a loop or an attack, and is not searched for images.
const MAX_FORM_DEPTH = 8;
// PDFium's memory never shrinks: past this, the instance is dropped once its document closes.
const RETAINED_MEMORY_BYTES = 256 * 2 ** 20;

/**
 * A PDF opened with PDFium, which draws pages several times faster than pdfjs and reads their text
 * about twice as fast. Its bytes live in PDFium's memory until `close()`. Any failure here is a reason
 * to draw or read with pdfjs instead, so errors
 * are reported, never recovered from, and a trap discards the thread's PDFium instance.
 */
export class PdfiumDocument {
  private closed = false;

  private constructor(
    private readonly pdfium: Pdfium,
    private readonly handle: number,
    private readonly bytesPointer: number,
    readonly pageCount: number,
  ) {}

  static async open(path: string, password?: string): Promise<PdfiumDocument> {
    const [pdfium, bytes] = await Promise.all([loadPdfium(), readFile(path)]);
    const { runtime } = pdfium;
    const pointer = runtime.wasmExports.malloc(bytes.byteLength);
    if (pointer === 0) throw new QuireError('unsupported', 'This PDF is too large to draw.');
    runtime.HEAPU8.set(bytes, pointer);
    // PDFium converts between Latin-1 and UTF-8 itself; only the SASLprep form may add a match.
    const forms = password === undefined ? [''] : [...new Set([password, preparePassword(password)])];
    let lastError = 0;
    for (const form of forms) {
      const handle = guarded(pdfium, () => pdfium.FPDF_LoadMemDocument(pointer, bytes.byteLength, form));
      if (handle !== 0) {
        return new PdfiumDocument(pdfium, handle, pointer, pdfium.FPDF_GetPageCount(handle));
      }
      lastError = pdfium.FPDF_GetLastError();
    }
    runtime.wasmExports.free(pointer);
    if (lastError === PDFIUM_ERROR_PASSWORD) {
      throw password === undefined
        ? new QuireError('needs_password', 'This PDF is encrypted: enter its password to read it.')
        : new QuireError('wrong_password', 'The password is not right for this PDF.');
    }
    if (lastError === PDFIUM_ERROR_SECURITY) {
      throw new QuireError('unsupported', 'This PDF uses an encryption scheme that cannot be read.');
    }
    throw new QuireError('unsupported', 'PDFium cannot open this PDF.');
  }

  /** Draws a 1-based page at `longEdge` pixels on its long edge, and again at thumbnail size. */
  drawPage(pageNumber: number, longEdge: number): PageRasters {
    return this.withDrawablePage(pageNumber, (page, width, height) => {
      const sizes = rasterSizes(width, height, longEdge);
      return {
        full: guarded(this.pdfium, () => this.drawLoadedPage(page, sizes.full)),
        thumbnail: guarded(this.pdfium, () => this.drawLoadedPage(page, sizes.thumbnail)),
      };
    });
  }

  /** Draws a 1-based page at `longEdge` pixels on its long edge, without a thumbnail. */
  drawFullPage(pageNumber: number, longEdge: number): RasterPage {
    return this.withDrawablePage(pageNumber, (page, width, height) =>
      guarded(this.pdfium, () => this.drawLoadedPage(page, rasterSizes(width, height, longEdge).full)),
    );
  }

  /** The size of a 1-based page in points, as it is shown (after its rotation). */
  pageSize(pageNumber: number): { width: number; height: number } {
    return this.withPage(pageNumber, (page) => ({
      width: this.pdfium.FPDF_GetPageWidthF(page),
      height: this.pdfium.FPDF_GetPageHeightF(page),
    }));
  }

  /** Runs `use` on a loaded page, closing it after. */
  withPage<T>(pageNumber: number, use: (page: number) => T): T {
    if (this.closed) throw new QuireError('cancelled', 'The document is closed.');
    const pdfium = this.pdfium;
    const page = guarded(pdfium, () => pdfium.FPDF_LoadPage(this.handle, pageNumber - 1));
    if (page === 0) throw new QuireError('unsupported', `PDFium cannot read page ${pageNumber}.`);
    try {
      return guarded(pdfium, () => use(page));
    } finally {
      guarded(pdfium, () => pdfium.FPDF_ClosePage(page));
    }
  }

  /**
   * The object number of a 1-based page's dictionary, without loading the page; null when PDFium cannot
   * tell. Two pages with the same number are one object listed twice in the page tree.
   */
  pageObjectNumber(pageNumber: number): number | null {
    if (this.closed) throw new QuireError('cancelled', 'The document is closed.');
    const pdfium = this.pdfium;
    const number = guarded(pdfium, () =>
      pdfium.EPDFDoc_GetPageObjectNumberByIndex(this.handle, pageNumber - 1),
    );
    return number > 0 ? number : null;
  }

  /** A document information entry ("Title", "Author"...); null when the file has none. */
  metaText(tag: string): string | null {
    if (this.closed) throw new QuireError('cancelled', 'The document is closed.');
    const pdfium = this.pdfium;
    // The answer is UTF-16LE with a two-byte terminator; a first call with no buffer gives its length.
    const bytes = guarded(pdfium, () => pdfium.FPDF_GetMetaText(this.handle, tag, 0, 0));
    if (bytes <= 2) return null;
    const buffer = pdfium.runtime.wasmExports.malloc(bytes);
    try {
      guarded(pdfium, () => pdfium.FPDF_GetMetaText(this.handle, tag, buffer, bytes));
      return Buffer.from(pdfium.runtime.HEAPU8.subarray(buffer, buffer + bytes - 2)).toString('utf16le');
    } finally {
      pdfium.runtime.wasmExports.free(buffer);
    }
  }

  /** The pdfium handle, for readers that measure a loaded page (see pageContent.ts). */
  get engine(): Pdfium {
    return this.pdfium;
  }

  private withDrawablePage<T>(
    pageNumber: number,
    draw: (page: number, width: number, height: number) => T,
  ): T {
    return this.withPage(pageNumber, (page) => {
      const pdfium = this.pdfium;
      const width = pdfium.FPDF_GetPageWidthF(page);
      const height = pdfium.FPDF_GetPageHeightF(page);
      if (!isPlausiblePageSide(width) || !isPlausiblePageSide(height)) {
        throw new QuireError(
          'unsupported',
          `PDFium reads page ${pageNumber} as ${width} x ${height} points.`,
        );
      }
      const largest = largestImagePixels(pdfium, page);
      if (largest > MAX_IMAGE_PIXELS) {
        throw new QuireError(
          'unsupported',
          `Page ${pageNumber} holds an image of ${Math.round(largest / 1e6)} megapixels.`,
        );
      }
      return draw(page, width, height);
    });
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    guarded(this.pdfium, () => this.pdfium.FPDF_CloseDocument(this.handle));
    this.pdfium.runtime.wasmExports.free(this.bytesPointer);
    if (this.pdfium.runtime.HEAPU8.byteLength > RETAINED_MEMORY_BYTES) discardPdfium(this.pdfium);
  }

  private drawLoadedPage(page: number, size: { width: number; height: number }): RasterPage {
    const { width, height } = size;
    const pdfium = this.pdfium;
    const bitmap = pdfium.FPDFBitmap_CreateEx(width, height, FPDFBitmap_BGR, 0, 0);
    if (bitmap === 0) throw new QuireError('unsupported', 'The page is too large to draw.');
    try {
      pdfium.FPDFBitmap_FillRect(bitmap, 0, 0, width, height, WHITE);
      pdfium.FPDF_RenderPageBitmap(
        bitmap,
        page,
        0,
        0,
        width,
        height,
        0,
        FPDF_ANNOT | FPDF_REVERSE_BYTE_ORDER,
      );
      const stride = pdfium.FPDFBitmap_GetStride(bitmap);
      const start = pdfium.FPDFBitmap_GetBuffer(bitmap);
      const heap = pdfium.runtime.HEAPU8;
      const rowBytes = width * 3;
      // Copied out of PDFium's memory, which the next allocation may move; rows are padded to 4 bytes.
      if (stride === rowBytes) {
        return { pixels: heap.slice(start, start + rowBytes * height), channels: 3, width, height };
      }
      const pixels = new Uint8Array(rowBytes * height);
      for (let row = 0; row < height; row++) {
        pixels.set(heap.subarray(start + row * stride, start + row * stride + rowBytes), row * rowBytes);
      }
      return { pixels, channels: 3, width, height };
    } finally {
      pdfium.FPDFBitmap_Destroy(bitmap);
    }
  }
}

/** Pixel count of the largest image on a loaded page, looking into form XObjects. */
function largestImagePixels(pdfium: Pdfium, page: number): number {
  const { runtime } = pdfium;
  const size = runtime.wasmExports.malloc(8);
  try {
    const visit = (count: number, objectAt: (index: number) => number, depth: number): number => {
      let largest = 0;
      for (let index = 0; index < count; index++) {
        const object = objectAt(index);
        const type = pdfium.FPDFPageObj_GetType(object);
        if (type === FPDF_PAGEOBJ_IMAGE && pdfium.FPDFImageObj_GetImagePixelSize(object, size, size + 4)) {
          const view = new DataView(runtime.HEAPU8.buffer);
          largest = Math.max(largest, view.getUint32(size, true) * view.getUint32(size + 4, true));
        } else if (type === FPDF_PAGEOBJ_FORM && depth < MAX_FORM_DEPTH) {
          const inner = (at: number) => pdfium.FPDFFormObj_GetObject(object, at);
          largest = Math.max(largest, visit(pdfium.FPDFFormObj_CountObjects(object), inner, depth + 1));
        }
      }
      return largest;
    };
    return visit(pdfium.FPDFPage_CountObjects(page), (at) => pdfium.FPDFPage_GetObject(page, at), 0);
  } finally {
    runtime.wasmExports.free(size);
  }
}

function isPlausiblePageSide(points: number): boolean {
  return Number.isFinite(points) && points > 0 && points <= MAX_PAGE_POINTS;
}

/** Runs a PDFium call; a WebAssembly trap (out of memory, an abort) leaves the instance unusable. */
function guarded<T>(pdfium: Pdfium, call: () => T): T {
  try {
    return call();
  } catch (error) {
    // A check of Quire's own failed: the instance is fine.
    if (error instanceof QuireError) throw error;
    discardPdfium(pdfium);
    throw new QuireError(
      'unsupported',
      `PDFium failed: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}
