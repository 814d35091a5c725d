import { QuireError } from '../../../shared/errors';
import { bodyFontSize, groupBlocks } from '../layout/blocks';
import { chunkPages, DEFAULT_CHUNKING, type ChunkingOptions } from '../layout/chunker';
import { groupLines, type TextLine } from '../layout/lines';
import { placePageText, type PlacedPage } from '../layout/pageText';
import { coveredBy, ocrTextLines } from '../ocr/ocrLines';
import { pageOcrOf, recognizedTextSource } from '../ocr/ocrProvenance';
import type { OcrPageRecord } from '../ocr/ocrStore';
import type { OcrReason, PageOcr, PageTextSource, ParsedDocument, ParsedPage } from '../types';
import { openPdfPageReader, type PdfPageReader, type TextEngine } from './pdfPageReaders';
import { ocrReasonFor } from './textLayerCheck';
import type { PageContent } from '../pdfium/pageContent';

export { MIN_TEXT_CHARS } from './textLayerCheck';

// A US Letter page, the size given to a repeated page whose original was not read with it.
const LETTER_SIZE = { width: 612, height: 792 };

export interface ParsePdfOptions {
  password?: string;
  signal?: AbortSignal;
  chunking?: ChunkingOptions;
  /** Read only these 1-based pages (for previews and checks); every page when absent. */
  pages?: number[];
  /** OCR results by page, merged into the pages that need them (see ocrReasonFor). */
  ocr?: ReadonlyMap<number, OcrPageRecord>;
  /** Judge each text layer by its text alone, without PDFium's measure (see layerCheck.ts). */
  textOnly?: boolean;
  /** Read no page past this one (the per-document page limit); the rest of the file is left unread. */
  maxPages?: number;
}

export async function parsePdf(path: string, options: ParsePdfOptions = {}): Promise<ParsedDocument> {
  const whole = options.pages === undefined;
  const read = await readPdfPages(path, { ...options, withTitle: true, skipRepeats: whole });
  return assemblePdf([read], options.chunking);
}

/** Pages of a PDF read but not yet laid out: what a worker sends back for its range of a long file. */
export interface PdfPagesRead {
  pages: ReadPage[];
  /** The Title metadata, when asked for (once per document). */
  metadataTitle: string | null;
  /** Pages in the whole file. */
  pageCount: number;
  /**
   * Left unread because the file is longer than `onlyUpTo` (with `skipRepeats`): the pages to read that
   * repeat an earlier page, each with that page, so the ranges read only the others.
   */
  repeats?: Array<[page: number, first: number]>;
}

export interface ReadPdfPagesOptions extends ParsePdfOptions {
  withTitle?: boolean;
  skipPagesPastEnd?: boolean;
  /** Read nothing when more pages than this are to be read: the caller reads them in ranges. */
  onlyUpTo?: number;
  /**
   * A page whose object an earlier page of the file already is (a page tree listing one page many
   * times) is not read again but comes back as a repeat of it; the caller assembles every page before.
   */
  skipRepeats?: boolean;
}

/**
 * Reads the text of `options.pages` (every page up to `maxPages` when absent) and judges each page's
 * layer. With `textOnly`, the layer is judged by its text alone and PDFium's measure waits (see
 * layerCheck.ts).
 */
export async function readPdfPages(path: string, options: ReadPdfPagesOptions = {}): Promise<PdfPagesRead> {
  const reader = await openPdfPageReader(path, options.password);
  try {
    const pageCount = reader.pageCount;
    const readable = Math.min(pageCount, options.maxPages ?? pageCount);
    // Longer than the caller reads in one piece: it learns the page count and reads it in ranges.
    if (options.onlyUpTo !== undefined && readable > options.onlyUpTo) {
      const all = Array.from({ length: readable }, (_, i) => i + 1);
      const repeats = options.skipRepeats ? [...repeatedPages(reader, all)] : [];
      return { pages: [], metadataTitle: null, pageCount, ...(repeats.length > 0 ? { repeats } : {}) };
    }
    // A file that lost pages since it was counted is noticed by its page count, not by a missing page.
    const wanted =
      (options.skipPagesPastEnd ? options.pages?.filter((page) => page <= pageCount) : options.pages) ??
      Array.from({ length: readable }, (_, i) => i + 1);
    const repeats = options.skipRepeats ? repeatedPages(reader, wanted) : new Map<number, number>();
    const pages: ReadPage[] = [];
    for (const page of wanted) {
      if (!Number.isInteger(page) || page < 1 || page > pageCount) {
        throw new QuireError('invalid_input', `Page ${page} does not exist: the PDF has ${pageCount} pages.`);
      }
      options.signal?.throwIfAborted();
      const first = repeats.get(page);
      if (first !== undefined) {
        pages.push(repeatedPage(page, first));
        continue;
      }
      // With textOnly the layer is judged by its text now and measured after the file is searchable.
      const { runs, content, ...read } = await reader.readRuns(page, { measure: !options.textOnly });
      pages.push(readWithOcr({ ...read, lines: groupLines(runs), repeatOf: null }, content, options.ocr));
    }
    const title = options.withTitle ? await reader.title() : null;
    return { pages, metadataTitle: title, pageCount };
  } finally {
    await reader.close();
  }
}

/**
 * Of `wanted`, the pages whose object an earlier page of the file is, each with the first page that
 * has it. Asking PDFium for the object numbers of a few thousand pages takes milliseconds.
 */
function repeatedPages(reader: PdfPageReader, wanted: readonly number[]): Map<number, number> {
  const last = wanted.reduce((most, page) => Math.max(most, page), 0);
  const firstWith = new Map<number, number>();
  const repeats = new Map<number, number>();
  for (let page = 1; page <= Math.min(last, reader.pageCount); page++) {
    const object = reader.pageObject(page);
    if (object === null) continue;
    const first = firstWith.get(object);
    if (first === undefined) firstWith.set(object, page);
    else repeats.set(page, first);
  }
  return repeats;
}

/** A page not read because it is `first` again: its size and text are taken from `first` when laid out. */
export function repeatedPage(page: number, first: number): ReadPage {
  return {
    page,
    width: 0,
    height: 0,
    lines: [],
    unreadable: null,
    engine: 'pdfium',
    reason: null,
    ocr: null,
    repeatOf: first,
  };
}

/**
 * Lays out pages read in one piece or in ranges (in page order) into the document: headings are judged
 * against the whole document's body size, so a page of large print is not all headings.
 */
export function assemblePdf(
  parts: readonly PdfPagesRead[],
  chunking: ChunkingOptions = DEFAULT_CHUNKING,
): ParsedDocument {
  const read = sizeRepeats(parts.flatMap((part) => part.pages));
  const own = read.filter((page) => page.repeatOf === null);
  const firstFailure = own.find((page) => page.unreadable !== null);
  if (firstFailure && own.every((page) => page.unreadable !== null)) {
    throw new QuireError('unsupported', `This PDF's pages cannot be read: ${firstFailure.unreadable}`);
  }
  const bodySize = bodyFontSize(own.flatMap((page) => page.lines));
  const placed: PlacedPage[] = read.map(({ page, width, height, lines }) =>
    placePageText({ page, width, height, blocks: groupBlocks(lines, bodySize) }),
  );
  const pages: ParsedPage[] = placed.map(({ page, width, height, text }, at) => {
    const { reason, ocr, engine, repeatOf } = read[at]!;
    // Searchable once, on the first page that has it; OCR, if it needs any, reads that page.
    if (repeatOf !== null) {
      return {
        page,
        width,
        height,
        text: '',
        needsOcr: false,
        textSource: { method: 'none', engine, repeatOf },
      };
    }
    return {
      page,
      width,
      height,
      text,
      needsOcr: reason !== null,
      ...(reason ? { ocrReason: reason } : {}),
      textSource: textSourceOf(text, ocr, engine),
    };
  });
  const pagesInFile = parts[0]?.pageCount ?? 0;
  return {
    kind: 'pdf',
    title: parts[0]?.metadataTitle ?? firstHeading(placed),
    pages,
    chunks: chunkPages(placed, chunking),
    ...(pagesInFile > pages.length ? { pagesInFile } : {}),
  };
}

/** Repeated pages get the size of the page they repeat, when it was read with them. */
function sizeRepeats(read: ReadPage[]): ReadPage[] {
  const byPage = new Map(read.map((page) => [page.page, page]));
  return read.map((page) => {
    if (page.repeatOf === null) return page;
    const first = byPage.get(page.repeatOf);
    // A repeat whose page was not read with it (a caller's own page list) is read as a blank page.
    return first ? { ...page, width: first.width, height: first.height } : { ...page, ...LETTER_SIZE };
  });
}

export interface ReadPage {
  page: number;
  width: number;
  height: number;
  lines: TextLine[];
  /** Why no engine could read the page; null when one could. */
  unreadable: string | null;
  /** The engine that read the page's text layer. */
  engine: TextEngine;
  /** The earlier page this one is (the same page object), not read again; null for a page read. */
  repeatOf: number | null;
  reason: OcrReason | null;
  ocr: PageOcr | null;
}

/**
 * A page's lines, with OCR where its layer is not enough and a result is at hand: OCR replaces a
 * missing, invisible or garbled layer, and fills in around a partial one. A page OCR could not read
 * keeps whatever layer it had.
 */
function readWithOcr(
  page: Omit<ReadPage, 'reason' | 'ocr'>,
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

function textSourceOf(text: string, ocr: PageOcr | null, engine: TextEngine): PageTextSource {
  if (ocr && ocr.words > 0) return recognizedTextSource(ocr);
  return { method: text.trim() ? 'layer' : 'none', engine, ...(ocr ? { ocr } : {}) };
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
