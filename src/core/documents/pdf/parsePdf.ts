import type { PDFDocumentProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { QuireError } from '../../../shared/errors';
import { bodyFontSize, groupBlocks } from '../layout/blocks';
import { chunkPages, DEFAULT_CHUNKING, type ChunkingOptions } from '../layout/chunker';
import { groupLines, type TextLine } from '../layout/lines';
import { placePageText, type PlacedPage } from '../layout/pageText';
import { coveredBy, ocrTextLines } from '../ocr/ocrLines';
import { pageOcrOf, recognizedTextSource } from '../ocr/ocrProvenance';
import type { OcrPageRecord } from '../ocr/ocrStore';
import { measurePdfPages } from '../pdfium/measurePdfPages';
import type { PageContent } from '../pdfium/pageContent';
import type { OcrReason, PageOcr, PageTextSource, ParsedDocument, ParsedPage } from '../types';
import { openPdf } from './openPdf';
import { ocrReasonFor } from './textLayerCheck';
import { readPageRuns } from './textRuns';

export { MIN_TEXT_CHARS } from './textLayerCheck';

// The size given to a page whose own size cannot be read.
const LETTER_WIDTH = 612;
const LETTER_HEIGHT = 792;

export interface ParsePdfOptions {
  password?: string;
  signal?: AbortSignal;
  chunking?: ChunkingOptions;
  /** Read only these 1-based pages (for previews and checks); every page when absent. */
  pages?: number[];
  /** OCR results by page, merged into the pages that need them (see ocrReasonFor). */
  ocr?: ReadonlyMap<number, OcrPageRecord>;
  /** PDFium's measure of each page (images, invisible text); measured here when absent. */
  content?: ReadonlyMap<number, PageContent>;
  /** Judge each text layer by its text alone, without PDFium's measure (see layerCheck.ts). */
  textOnly?: boolean;
}

export async function parsePdf(path: string, options: ParsePdfOptions = {}): Promise<ParsedDocument> {
  const read = await readPdfPages(path, { ...options, withTitle: true });
  return assemblePdf([read], options.chunking);
}

/** Pages of a PDF read but not yet laid out: what a worker sends back for its range of a long file. */
export interface PdfPagesRead {
  pages: ReadPage[];
  /** The Title metadata, when asked for (once per document). */
  metadataTitle: string | null;
  /** Pages in the whole file. */
  pageCount: number;
}

/**
 * Reads the text runs of `options.pages` (every page when absent) and judges each page's layer. With
 * `textOnly`, the layer is judged by its text alone and PDFium is not asked (see textLayerCheck.ts).
 */
export async function readPdfPages(
  path: string,
  options: ParsePdfOptions & { withTitle?: boolean; skipPagesPastEnd?: boolean; onlyUpTo?: number } = {},
): Promise<PdfPagesRead> {
  const document = await openPdf(path, options.password === undefined ? {} : { password: options.password });
  try {
    // Longer than the caller reads in one piece: it learns the page count and reads it in ranges.
    if (options.onlyUpTo !== undefined && document.numPages > options.onlyUpTo) {
      return { pages: [], metadataTitle: null, pageCount: document.numPages };
    }
    const content = options.textOnly
      ? new Map<number, PageContent>()
      : (options.content ?? (await measurePdfPages(path, options.password, options.pages)));
    // A file that lost pages since it was counted is noticed by its page count, not by a missing page.
    const wanted = options.skipPagesPastEnd
      ? options.pages?.filter((page) => page <= document.numPages)
      : options.pages;
    const pages = await readOpenPdf(document, { ...options, content, ...(wanted ? { pages: wanted } : {}) });
    const title = options.withTitle ? await metadataTitle(document) : null;
    return { pages, metadataTitle: title, pageCount: document.numPages };
  } finally {
    await document.destroy().catch(() => undefined);
  }
}

export async function parseOpenPdf(
  document: PDFDocumentProxy,
  options: ParsePdfOptions = {},
): Promise<ParsedDocument> {
  const pages = await readOpenPdf(document, options);
  const title = await metadataTitle(document);
  return assemblePdf([{ pages, metadataTitle: title, pageCount: document.numPages }], options.chunking);
}

async function readOpenPdf(document: PDFDocumentProxy, options: ParsePdfOptions): Promise<ReadPage[]> {
  const read: ReadPage[] = [];
  const wanted = options.pages ?? Array.from({ length: document.numPages }, (_, i) => i + 1);
  for (const page of wanted) {
    if (!Number.isInteger(page) || page < 1 || page > document.numPages) {
      throw new QuireError(
        'invalid_input',
        `Page ${page} does not exist: the PDF has ${document.numPages} pages.`,
      );
    }
    options.signal?.throwIfAborted();
    const lines = { page, ...(await readPageLines(document, page)) };
    read.push(readWithOcr(lines, options.content?.get(page) ?? null, options.ocr));
  }
  return read;
}

/**
 * Lays out pages read in one piece or in ranges (in page order) into the document: headings are judged
 * against the whole document's body size, so a page of large print is not all headings.
 */
export function assemblePdf(
  parts: readonly PdfPagesRead[],
  chunking: ChunkingOptions = DEFAULT_CHUNKING,
): ParsedDocument {
  const read = parts.flatMap((part) => part.pages);
  const firstFailure = read.find((page) => page.unreadable !== null);
  if (firstFailure && read.every((page) => page.unreadable !== null)) {
    throw new QuireError('unsupported', `This PDF's pages cannot be read: ${firstFailure.unreadable}`);
  }
  const bodySize = bodyFontSize(read.flatMap((page) => page.lines));
  const placed: PlacedPage[] = read.map(({ page, width, height, lines }) =>
    placePageText({ page, width, height, blocks: groupBlocks(lines, bodySize) }),
  );
  const pages: ParsedPage[] = placed.map(({ page, width, height, text }, at) => {
    const { reason, ocr } = read[at]!;
    return {
      page,
      width,
      height,
      text,
      needsOcr: reason !== null,
      ...(reason ? { ocrReason: reason } : {}),
      textSource: textSourceOf(text, ocr),
    };
  });
  return {
    kind: 'pdf',
    title: parts[0]?.metadataTitle ?? firstHeading(placed),
    pages,
    chunks: chunkPages(placed, chunking),
  };
}

export interface ReadPage {
  page: number;
  width: number;
  height: number;
  lines: TextLine[];
  /** Why pdfjs could not read the page; null when it could. */
  unreadable: string | null;
  reason: OcrReason | null;
  ocr: PageOcr | null;
}

/**
 * A page's lines, with OCR where its layer is not enough and a result is at hand: OCR replaces a
 * missing, invisible or garbled layer, and fills in around a partial one. A page OCR could not read
 * keeps whatever layer it had.
 */
function readWithOcr(
  page: { page: number; width: number; height: number; lines: TextLine[]; unreadable: string | null },
  content: PageContent | null,
  records: ReadonlyMap<number, OcrPageRecord> | undefined,
): ReadPage {
  const reason = ocrReasonFor(page.lines.map((line) => line.text).join('\n'), content);
  const record = reason ? records?.get(page.page) : undefined;
  if (!reason || !record) return { ...page, reason, ocr: null };
  const recognized = ocrTextLines(record, page.width, page.height);
  const layerBoxes = page.lines.map((line) => line.box);
  const added = reason === 'partial' ? recognized.filter((line) => !coveredBy(line, layerBoxes)) : recognized;
  const words = added.reduce((sum, line) => sum + line.text.split(/\s+/).filter(Boolean).length, 0);
  const ocr = pageOcrOf(record, reason, words);
  if (words === 0) return { ...page, reason, ocr };
  const lines = reason === 'partial' ? [...page.lines, ...added] : added;
  return { ...page, lines, reason, ocr };
}

function textSourceOf(text: string, ocr: PageOcr | null): PageTextSource {
  if (ocr && ocr.words > 0) return recognizedTextSource(ocr);
  return { method: text.trim() ? 'layer' : 'none', engine: 'pdfjs', ...(ocr ? { ocr } : {}) };
}

/**
 * A page's lines. A page pdfjs cannot read (a broken object in a repaired file) comes back empty, so
 * it is flagged for OCR and the rest of the document is still read.
 */
async function readPageLines(document: PDFDocumentProxy, pageNumber: number) {
  try {
    const page = await document.getPage(pageNumber);
    try {
      const { width, height, runs } = await readPageRuns(page);
      return { width, height, lines: groupLines(runs), unreadable: null };
    } finally {
      page.cleanup();
    }
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { width: LETTER_WIDTH, height: LETTER_HEIGHT, lines: [], unreadable: reason };
  }
}

/** The document's Title metadata; null when it has none. */
async function metadataTitle(document: PDFDocumentProxy): Promise<string | null> {
  const metadata = await document.getMetadata().catch(() => undefined);
  const info = metadata?.info as { Title?: unknown } | undefined;
  return typeof info?.Title === 'string' && info.Title.trim() !== '' ? info.Title.trim() : null;
}

/** The first heading, the title of a document without Title metadata. */
function firstHeading(pages: readonly PlacedPage[]): string | null {
  for (const page of pages) {
    const heading = page.blocks.find((block) => block.kind === 'heading');
    if (heading) {
      const first = heading.lines[0]!;
      return page.text
        .slice(first.charStart, heading.lines[heading.lines.length - 1]!.charEnd)
        .replace(/\s+/g, ' ')
        .trim();
    }
  }
  return null;
}
