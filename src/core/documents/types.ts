/*
 * What the document readers produce and the index stores. Readers never touch the index; the ingestion
 * queue carries these from one to the other.
 */
import type { BoundingBox } from '../../shared/domain/search';
import type { DocumentKind } from '../../shared/domain/library';

/**
 * Where a page's text came from, so search results, the page viewer and re-reading can tell a
 * text layer from OCR. Readers fill it; the index stores it with the page.
 */
export interface PageTextSource {
  /** `layer`: the file's own text; `ocr`: recognised from the page image; `none`: no text was found. */
  method: 'layer' | 'ocr' | 'none';
  /** The engine that produced the text, e.g. `pdfjs`, `tesseract`; absent when it does not matter. */
  engine?: string;
  /** The engine's mean confidence, 0..1, for recognised text. */
  confidence?: number;
}

export interface ParsedPage {
  /** 1-based. */
  page: number;
  /** Page size in PDF points (for text documents: a nominal size). */
  width: number;
  height: number;
  /** The page's text in reading order. */
  text: string;
  /** True when the page has no usable text layer (a scan): it still gets an image and a page embedding. */
  needsOcr: boolean;
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
