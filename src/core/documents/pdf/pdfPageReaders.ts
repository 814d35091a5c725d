import type { PDFDocumentProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { measurePageContent, type PageContent } from '../pdfium/pageContent';
import { PdfiumDocument } from '../pdfium/pdfiumDocument';
import { readPdfiumPageRuns } from '../pdfium/pdfiumTextRuns';
import { openPdf } from './openPdf';
import { readPageRuns, type TextRun } from './textRuns';

// The size given to a page whose own size cannot be read.
const LETTER_WIDTH = 612;
const LETTER_HEIGHT = 792;

export type TextEngine = 'pdfium' | 'pdfjs';

/** One page's text runs as read, or why no engine could read them. */
export interface PageTextRead {
  page: number;
  width: number;
  height: number;
  runs: TextRun[];
  /** Why the page could not be read; null when it could. */
  unreadable: string | null;
  engine: TextEngine;
  /** PDFium's measure of the page, when asked for and PDFium read it. */
  content: PageContent | null;
}

/** An open PDF whose pages are read one at a time; `close()` lets go of it. */
export interface PdfPageReader {
  readonly pageCount: number;
  /** A page's text runs; with `measure`, PDFium's measure of the page too (when PDFium reads it). */
  readRuns(page: number, options: { measure: boolean }): Promise<PageTextRead>;
  /**
   * What names a page's dictionary in the file (its object number): pages with the same one are the
   * same page listed again. Null when the reader cannot tell without loading the page.
   */
  pageObject(page: number): number | null;
  /** The Title metadata; null when it has none. */
  title(): Promise<string | null>;
  close(): Promise<void>;
}

/**
 * Opens a PDF for reading its text: with PDFium, which reads a page about twice as fast as pdfjs and
 * measures it on the same load, else with pdfjs, whose errors say what is wrong with the file
 * (a password, a broken file). A page PDFium cannot read is read by pdfjs.
 */
export async function openPdfPageReader(path: string, password: string | undefined): Promise<PdfPageReader> {
  const pdfjsOptions = password === undefined ? {} : { password };
  const pdfium = await PdfiumDocument.open(path, password).catch(() => null);
  // A file PDFium opens without finding pages (a cross-reference it cannot decode) may read in pdfjs.
  if (pdfium && pdfium.pageCount > 0) return new PdfiumPageReader(pdfium, () => openPdf(path, pdfjsOptions));
  pdfium?.close();
  return new PdfjsPageReader(await openPdf(path, pdfjsOptions));
}

class PdfjsPageReader implements PdfPageReader {
  constructor(private readonly document: PDFDocumentProxy) {}

  get pageCount(): number {
    return this.document.numPages;
  }

  readRuns(page: number): Promise<PageTextRead> {
    return readWithPdfjs(this.document, page);
  }

  // pdfjs learns a page's object only by loading it; files PDFium cannot open are rare enough.
  pageObject(): number | null {
    return null;
  }

  async title(): Promise<string | null> {
    const metadata = await this.document.getMetadata().catch(() => undefined);
    const info = metadata?.info as { Title?: unknown } | undefined;
    return typeof info?.Title === 'string' ? nonEmpty(info.Title) : null;
  }

  async close(): Promise<void> {
    await this.document.destroy().catch(() => undefined);
  }
}

class PdfiumPageReader implements PdfPageReader {
  private pdfjs: Promise<PDFDocumentProxy> | null = null;

  constructor(
    private readonly document: PdfiumDocument,
    private readonly openPdfjs: () => Promise<PDFDocumentProxy>,
  ) {}

  get pageCount(): number {
    return this.document.pageCount;
  }

  async readRuns(page: number, { measure }: { measure: boolean }): Promise<PageTextRead> {
    try {
      return this.document.withPage(page, (handle) => {
        const { width, height, runs } = readPdfiumPageRuns(this.document.engine, handle);
        const content = measure ? measurePageContent(this.document.engine, handle) : null;
        return { page, width, height, runs, unreadable: null, engine: 'pdfium', content };
      });
    } catch {
      this.pdfjs ??= this.openPdfjs();
      const pdfjs = await this.pdfjs.catch((error: unknown) => error);
      if (pdfjs instanceof Error || !pdfjs) return unreadablePage(page, pdfjs, 'pdfjs');
      return readWithPdfjs(pdfjs as PDFDocumentProxy, page);
    }
  }

  pageObject(page: number): number | null {
    try {
      return this.document.pageObjectNumber(page);
    } catch {
      return null;
    }
  }

  title(): Promise<string | null> {
    const title = this.document.metaText('Title');
    return Promise.resolve(title === null ? null : nonEmpty(title));
  }

  async close(): Promise<void> {
    this.document.close();
    const pdfjs = await this.pdfjs?.catch(() => null);
    await pdfjs?.destroy().catch(() => undefined);
  }
}

/**
 * A page's lines read by pdfjs. A page pdfjs cannot read (a broken object in a repaired file) comes
 * back empty, so it is flagged for OCR and the rest of the document is still read.
 */
async function readWithPdfjs(document: PDFDocumentProxy, pageNumber: number): Promise<PageTextRead> {
  try {
    const page = await document.getPage(pageNumber);
    try {
      const { width, height, runs } = await readPageRuns(page);
      return { page: pageNumber, width, height, runs, unreadable: null, engine: 'pdfjs', content: null };
    } finally {
      page.cleanup();
    }
  } catch (error) {
    return unreadablePage(pageNumber, error, 'pdfjs');
  }
}

function unreadablePage(page: number, error: unknown, engine: TextEngine): PageTextRead {
  const reason = error instanceof Error ? error.message : String(error);
  return {
    page,
    width: LETTER_WIDTH,
    height: LETTER_HEIGHT,
    runs: [],
    unreadable: reason,
    engine,
    content: null,
  };
}

function nonEmpty(text: string): string | null {
  return text.trim() === '' ? null : text.trim();
}
