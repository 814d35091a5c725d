/*
 * What the document readers produce and the index stores. Readers never touch the index; the ingestion
 * queue carries these from one to the other.
 */
import type { BoundingBox, PageTextSource as SharedPageTextSource } from '../../shared/domain/search';
import type { DocumentKind } from '../../shared/domain/library';

/**
 * Where a page's text came from (its layer, OCR, or nothing) and, on a page that needed OCR, why
 * and what OCR made of it. Readers fill it; the index stores it with the page.
 */
export type PageTextSource = SharedPageTextSource;
export type PageOcr = NonNullable<PageTextSource['ocr']>;
/**
 * Why a page's own text layer was not enough: it has none (`missing`), its text is drawn invisibly
 * (an OCR layer from another tool, `invisible`), it is unreadable (`garbled`), or the page is mostly
 * image and the layer covers only a small part of it (`partial`).
 */
export type OcrReason = PageOcr['reason'];

export interface ParsedPage {
  /** 1-based. */
  page: number;
  /** Page size in PDF points (for text documents: a nominal size). */
  width: number;
  height: number;
  /** The page's text in reading order. */
  text: string;
  /** True when the page's text layer is missing or not enough (see OcrReason): OCR reads it. */
  needsOcr: boolean;
  /** Why the page needs OCR; absent when it does not. */
  ocrReason?: OcrReason;
  /** Where `text` came from; absent when the reader does not say. */
  textSource?: PageTextSource;
}

export interface TextChunk {
  /** Position of the chunk within its document, from 0. */
  index: number;
  /** 1-based page the chunk sits on; a chunk never spans documents. */
  page: number;
  text: string;
  /** Offsets into the page's `text`. */
  charStart: number;
  charEnd: number;
  /** Regions on the page, in PDF points, origin top-left. */
  boxes: BoundingBox[];
  /** The nearest heading above the chunk, when one is known: indexed with the text. */
  heading: string | null;
}

export interface ParsedDocument {
  kind: DocumentKind;
  title: string | null;
  pages: ParsedPage[];
  chunks: TextChunk[];
  /** The pages the file has, when reading stopped before its end (the per-document page limit). */
  pagesInFile?: number;
}

export interface PageImageRef {
  page: number;
  /** Paths relative to the page-image store root. */
  full: string;
  thumbnail: string;
  /** Pixel size of the full image. */
  width: number;
  height: number;
}
