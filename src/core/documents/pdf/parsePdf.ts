import { QuireError } from '../../../shared/errors';
import { bodyFontSize, groupBlocks } from '../layout/blocks';
import { chunkPages, DEFAULT_CHUNKING, type ChunkingOptions } from '../layout/chunker';
import { groupLines, type TextLine } from '../layout/lines';
import { placePageText, type PlacedPage } from '../layout/pageText';
import { coveredBy, ocrTextLines } from '../ocr/ocrLines';
import { pageOcrOf, recognizedTextSource } from '../ocr/ocrProvenance';
import type { OcrPageRecord } from '../ocr/ocrStore';
import type { OcrReason, PageOcr, PageTextSource, ParsedDocument, ParsedPage } from '../types';
import { openPdfPageReader, type TextEngine } from './pdfPageReaders';
import { ocrReasonFor } from './textLayerCheck';
import type { PageContent } from '../pdfium/pageContent';

export { MIN_TEXT_CHARS } from './textLayerCheck';

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
 * Reads the text of `options.pages` (every page when absent) and judges each page's layer. With
 * `textOnly`, the layer is judged by its text alone and PDFium's measure waits (see layerCheck.ts).
 */
export async function readPdfPages(
  path: string,
  options: ParsePdfOptions & { withTitle?: boolean; skipPagesPastEnd?: boolean; onlyUpTo?: number } = {},
): Promise<PdfPagesRead> {
  const reader = await openPdfPageReader(path, options.password);
  try {
    const pageCount = reader.pageCount;
    // Longer than the caller reads in one piece: it learns the page count and reads it in ranges.
    if (options.onlyUpTo !== undefined && pageCount > options.onlyUpTo) {
      return { pages: [], metadataTitle: null, pageCount };
    }
    // A file that lost pages since it was counted is noticed by its page count, not by a missing page.
    const wanted =
      (options.skipPagesPastEnd ? options.pages?.filter((page) => page <= pageCount) : options.pages) ??
      Array.from({ length: pageCount }, (_, i) => i + 1);
    const pages: ReadPage[] = [];
    for (const page of wanted) {
      if (!Number.isInteger(page) || page < 1 || page > pageCount) {
        throw new QuireError('invalid_input', `Page ${page} does not exist: the PDF has ${pageCount} pages.`);
      }
      options.signal?.throwIfAborted();
      // With textOnly the layer is judged by its text now and measured after the file is searchable.
      const { runs, content, ...read } = await reader.readRuns(page, { measure: !options.textOnly });
      pages.push(readWithOcr({ ...read, lines: groupLines(runs) }, content, options.ocr));
    }
    const title = options.withTitle ? await reader.title() : null;
    return { pages, metadataTitle: title, pageCount };
  } finally {
    await reader.close();
  }
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
    const { reason, ocr, engine } = read[at]!;
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
  /** Why no engine could read the page; null when one could. */
  unreadable: string | null;
  /** The engine that read the page's text layer. */
  engine: TextEngine;
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
