import { extname } from 'node:path';
import type { DocumentKind } from '../../../shared/domain/library';
import type { ChunkingOptions } from '../layout/chunker';
import type { OcrPageRecord } from '../ocr/ocrStore';
import type { OcrPageSource } from '../ocr/types';
import { PdfPageDrawer } from '../render/pdfPageDrawer';
import { parsePdf } from '../pdf/parsePdf';
import { countPdfPages } from '../pdf/countPdfPages';
import { parseTextFile } from '../text/parseText';
import type { ParsedDocument } from '../types';

export interface ReadOptions {
  password?: string;
  signal?: AbortSignal;
  chunking?: ChunkingOptions;
  /** OCR results by page number, merged into the pages whose own text is not enough. */
  ocr?: ReadonlyMap<number, OcrPageRecord>;
}

/**
 * How Quire reads one format: which files are of it, and how they become pages and chunks. Readers
 * run in the document pool's worker threads. A new format is a new reader in this list.
 */
export interface FormatReader {
  readonly kind: DocumentKind;
  /** File name extensions, lower case with the dot. */
  readonly extensions: readonly string[];
  /** Pages (with their text and where it came from) and chunks that know their page and boxes. */
  read(path: string, options: ReadOptions): Promise<ParsedDocument>;
  /** The page count without reading content, for formats with real pages; absent otherwise. */
  countPages?(path: string, options: { password?: string }): Promise<number>;
  /** Whether pages are drawn as images (formats with a page layout). */
  readonly drawsPages: boolean;
  /**
   * For formats whose pages can be scans: the pages as OCR draws them. Such a reader flags the pages
   * whose own text is not enough (`needsOcr`) and merges `ReadOptions.ocr` into them.
   */
  pagesForOcr?(path: string, options: { password?: string }): Promise<OcrPageSource>;
}

const withChunking = (options: ReadOptions) => (options.chunking ? { chunking: options.chunking } : {});

export const FORMAT_READERS: readonly FormatReader[] = [
  {
    kind: 'pdf',
    extensions: ['.pdf'],
    drawsPages: true,
    read: (path, options) =>
      parsePdf(path, {
        ...(options.password === undefined ? {} : { password: options.password }),
        ...(options.signal ? { signal: options.signal } : {}),
        ...withChunking(options),
        ...(options.ocr ? { ocr: options.ocr } : {}),
      }),
    countPages: (path, options) => countPdfPages(path, options.password),
    pagesForOcr: (path, options) => PdfPageDrawer.open(path, options.password),
  },
  {
    kind: 'markdown',
    extensions: ['.md', '.markdown'],
    drawsPages: false,
    read: (path, options) => parseTextFile(path, 'markdown', withChunking(options)),
  },
  {
    kind: 'text',
    extensions: ['.txt'],
    drawsPages: false,
    read: (path, options) => parseTextFile(path, 'text', withChunking(options)),
  },
];

const byKind = new Map(FORMAT_READERS.map((reader) => [reader.kind, reader]));
const byExtension = new Map(
  FORMAT_READERS.flatMap((reader) => reader.extensions.map((extension) => [extension, reader] as const)),
);

export function readerFor(kind: DocumentKind): FormatReader {
  const reader = byKind.get(kind);
  if (!reader) throw new Error(`No reader for ${kind} documents.`);
  return reader;
}

/** Whether documents of this kind can hold scanned pages, which OCR reads. */
export function readsScans(kind: DocumentKind): boolean {
  return byKind.get(kind)?.pagesForOcr !== undefined;
}

/** The kind of document a file is, by its name, or null when no reader takes it. */
export function documentKindOf(path: string): DocumentKind | null {
  return byExtension.get(extname(path).toLowerCase())?.kind ?? null;
}
