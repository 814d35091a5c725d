import { extname } from 'node:path';
import type { DocumentKind } from '../../../shared/domain/library';
import { parsePdf } from '../pdf/parsePdf';
import { countPdfPages } from '../pdf/countPdfPages';
import { parseTextFile, textFilePages } from '../text/parseText';
import type { FormatReader, ReadOptions } from './formatReader';
import { laidOutReader } from './laidOutReader';

export type { DrawOptions, FormatReader, ReadOptions } from './formatReader';

/*
 * Every format Quire lists, one reader each: the one place that says which files are read how. The
 * office, web, book and picture libraries are imported on first use, so threads that only ever
 * read PDFs (and the main thread, which asks only for kinds) never load them.
 */

const withChunking = (options: ReadOptions) => (options.chunking ? { chunking: options.chunking } : {});
const withSignal = (signal?: AbortSignal) => (signal ? { signal } : {});

const pdf: FormatReader = {
  kind: 'pdf',
  extensions: ['.pdf'],
  read: (path, options) =>
    parsePdf(path, {
      ...(options.password === undefined ? {} : { password: options.password }),
      ...withSignal(options.signal),
      ...withChunking(options),
      ...(options.ocr ? { ocr: options.ocr } : {}),
      ...(options.textOnly ? { textOnly: true } : {}),
      ...(options.maxPages === undefined ? {} : { maxPages: options.maxPages }),
    }),
  countPages: (path, options) => countPdfPages(path, options.password),
  drawPages: async (path, options, store) =>
    (await import('../render/renderPdfPages')).renderPdfPages(path, options, store),
  pagesForOcr: async (path, options) =>
    (await import('../render/pdfPageDrawer')).PdfPageDrawer.open(path, options.password),
};

/** Pictures: each frame is a page whose text is what OCR reads on it. */
const picture: FormatReader = {
  kind: 'image',
  extensions: ['.png', '.jpg', '.jpeg', '.tif', '.tiff', '.webp', '.heic', '.heif'],
  read: async (path, options) =>
    (await import('./image/readImage')).readImage(path, {
      ...(options.ocr ? { ocr: options.ocr } : {}),
      ...withChunking(options),
    }),
  countPages: async (path) =>
    (await (await import('./image/pictureFrames')).inspectPicture(path)).frames.length,
  drawPages: async (path, options, store) =>
    (await import('./image/picturePages')).drawPicturePages(path, options, store),
  pagesForOcr: async (path) => (await import('./image/picturePages')).picturePagesForOcr(path),
};

/** Markdown and plain text: pages of about 60 lines on a monospace grid, drawn like laid-out pages. */
function textReader(kind: 'markdown' | 'text', extensions: readonly string[]): FormatReader {
  const layOut = (path: string) => textFilePages(path, kind);
  return {
    kind,
    extensions,
    read: (path, options) => parseTextFile(path, kind, withChunking(options)),
    layOut,
    drawPages: async (path, options, store) =>
      (await import('../render/renderLaidOutPages')).renderLaidOutPages(path, layOut, options, store),
  };
}

/** A format listed so the user sees it, and refused with what to do instead. */
function refusedReader(kind: 'ppt' | 'xls', extensions: readonly string[]): FormatReader {
  return {
    kind,
    extensions,
    read: async () => (await import('./legacy/readLegacy')).refuseLegacy(kind),
  };
}

export const FORMAT_READERS: readonly FormatReader[] = [
  pdf,
  textReader('markdown', ['.md', '.markdown']),
  textReader('text', ['.txt']),
  laidOutReader('docx', ['.docx', '.docm'], async (path, signal) =>
    (await import('./docx/readDocx')).readDocx(path, withSignal(signal)),
  ),
  laidOutReader('doc', ['.doc'], async (path) => (await import('./legacy/readLegacy')).readDoc(path)),
  laidOutReader('pptx', ['.pptx', '.pptm'], async (path, signal) =>
    (await import('./pptx/readPptx')).readPptx(path, withSignal(signal)),
  ),
  laidOutReader('xlsx', ['.xlsx', '.xlsm'], async (path, signal) =>
    (await import('./xlsx/readXlsx')).readXlsx(path, withSignal(signal)),
  ),
  laidOutReader('odt', ['.odt'], async (path, signal) =>
    (await import('./odf/readOdf')).readOdf(path, 'odt', withSignal(signal)),
  ),
  laidOutReader('odp', ['.odp'], async (path, signal) =>
    (await import('./odf/readOdf')).readOdf(path, 'odp', withSignal(signal)),
  ),
  laidOutReader('ods', ['.ods'], async (path, signal) =>
    (await import('./odf/readOdf')).readOdf(path, 'ods', withSignal(signal)),
  ),
  laidOutReader('html', ['.html', '.htm', '.xhtml'], async (path) =>
    (await import('./html/readHtml')).readHtml(path),
  ),
  laidOutReader('epub', ['.epub'], async (path, signal) =>
    (await import('./epub/readEpub')).readEpub(path, withSignal(signal)),
  ),
  refusedReader('ppt', ['.ppt']),
  refusedReader('xls', ['.xls']),
  picture,
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

/** The kind of document a file is, by its name, or null when no reader takes it. */
export function documentKindOf(path: string): DocumentKind | null {
  return byExtension.get(extname(path).toLowerCase())?.kind ?? null;
}

/** Whether pages of this kind get images (drawn from the file, or from Quire's layout of it). */
export function drawsPages(kind: DocumentKind): boolean {
  return readerFor(kind).drawPages !== undefined;
}

/** Whether Quire lays out pages of this kind itself, and so can show them as formatted text. */
export function laysOutPages(kind: DocumentKind): boolean {
  return readerFor(kind).layOut !== undefined;
}

/** Whether documents of this kind can hold scanned pages (or are pictures), which OCR reads. */
export function readsScans(kind: DocumentKind): boolean {
  return readerFor(kind).pagesForOcr !== undefined;
}
