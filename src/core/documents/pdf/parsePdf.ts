import type { PDFDocumentProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { QuireError } from '../../../shared/errors';
import { bodyFontSize, groupBlocks } from '../layout/blocks';
import { chunkPages, DEFAULT_CHUNKING, type ChunkingOptions } from '../layout/chunker';
import { groupLines, type TextLine } from '../layout/lines';
import { placePageText, type PlacedPage } from '../layout/pageText';
import type { ParsedDocument, ParsedPage } from '../types';
import { openPdf } from './openPdf';
import { readPageRuns } from './textRuns';

/**
 * A page needs OCR when its text layer holds fewer than this many usable characters (letters, digits,
 * punctuation, symbols; not private-use glyph codes or U+FFFD from fonts without a Unicode map): blank
 * pages, scans, and pages whose only text is a page number or a stray mark.
 */
export const MIN_TEXT_CHARS = 10;

// The size given to a page whose own size cannot be read.
const LETTER_WIDTH = 612;
const LETTER_HEIGHT = 792;

export interface ParsePdfOptions {
  password?: string;
  signal?: AbortSignal;
  chunking?: ChunkingOptions;
  /** Read only these 1-based pages (for previews and checks); every page when absent. */
  pages?: number[];
}

export async function parsePdf(path: string, options: ParsePdfOptions = {}): Promise<ParsedDocument> {
  const document = await openPdf(path, options.password === undefined ? {} : { password: options.password });
  try {
    return await parseOpenPdf(document, options);
  } finally {
    await document.destroy().catch(() => undefined);
  }
}

export async function parseOpenPdf(
  document: PDFDocumentProxy,
  options: ParsePdfOptions = {},
): Promise<ParsedDocument> {
  const pageLines: Array<{
    page: number;
    width: number;
    height: number;
    lines: TextLine[];
    unreadable: string | null;
  }> = [];
  const wanted = options.pages ?? Array.from({ length: document.numPages }, (_, i) => i + 1);
  for (const page of wanted) {
    if (!Number.isInteger(page) || page < 1 || page > document.numPages) {
      throw new QuireError(
        'invalid_input',
        `Page ${page} does not exist: the PDF has ${document.numPages} pages.`,
      );
    }
    options.signal?.throwIfAborted();
    pageLines.push({ page, ...(await readPageLines(document, page)) });
  }
  const firstFailure = pageLines.find((page) => page.unreadable !== null);
  if (firstFailure && pageLines.every((page) => page.unreadable !== null)) {
    throw new QuireError('unsupported', `This PDF's pages cannot be read: ${firstFailure.unreadable}`);
  }
  // Headings are judged against the whole document's body size, so a page of large print is not all headings.
  const bodySize = bodyFontSize(pageLines.flatMap((page) => page.lines));
  const placed: PlacedPage[] = pageLines.map(({ page, width, height, lines }) =>
    placePageText({ page, width, height, blocks: groupBlocks(lines, bodySize) }),
  );
  const pages: ParsedPage[] = placed.map(({ page, width, height, text }) => ({
    page,
    width,
    height,
    text,
    needsOcr: usableCharacters(text) < MIN_TEXT_CHARS,
    textSource: { method: text.trim() ? 'layer' : 'none', engine: 'pdfjs' },
  }));
  return {
    kind: 'pdf',
    title: await readTitle(document, placed),
    pages,
    chunks: chunkPages(placed, options.chunking ?? DEFAULT_CHUNKING),
  };
}

/**
 * A page's lines. A page pdfjs cannot read (a broken object in a repaired file) comes back empty, so
 * it is flagged for OCR and the rest of the document is still read.
 */
function usableCharacters(text: string): number {
  return (text.match(/[\p{L}\p{N}\p{P}\p{S}]/gu) ?? []).filter((char) => char !== '\uFFFD').length;
}

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

/** The document's Title metadata, else its first heading. */
async function readTitle(document: PDFDocumentProxy, pages: readonly PlacedPage[]): Promise<string | null> {
  const metadata = await document.getMetadata().catch(() => undefined);
  const info = metadata?.info as { Title?: unknown } | undefined;
  if (typeof info?.Title === 'string' && info.Title.trim() !== '') return info.Title.trim();
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
