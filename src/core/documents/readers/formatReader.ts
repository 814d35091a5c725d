import type { DocumentKind } from '../../../shared/domain/library';
import type { ChunkingOptions } from '../layout/chunker';
import type { OcrPageRecord } from '../ocr/ocrStore';
import type { OcrPageSource } from '../ocr/types';
import type { DrawablePage } from '../render/laidOutRaster';
import type { PageImageStore } from '../render/pageImageStore';
import type { PageImageRef, ParsedDocument } from '../types';

export interface ReadOptions {
  password?: string;
  signal?: AbortSignal;
  chunking?: ChunkingOptions;
  /** OCR results by page number, merged into the pages whose own text is not enough. */
  ocr?: ReadonlyMap<number, OcrPageRecord>;
  /** PDF: judge each text layer by its text alone; PDFium's measure of the pages comes later. */
  textOnly?: boolean;
  /** PDF: read no page past this one (the per-document page limit, see DocumentPoolOptions). */
  maxPages?: number;
}

export interface DrawOptions {
  contentHash: string;
  /** 1-based pages; every page when absent. */
  pages?: number[];
  password?: string;
  /** Pixels on the long edge of the full-size image. */
  longEdge?: number;
  signal?: AbortSignal;
}

/**
 * How Quire reads one format: which files are of it, and how they become pages, chunks and page
 * images. Readers run in the document pool's worker threads; the list lives in formatReaders.ts.
 */
export interface FormatReader {
  readonly kind: DocumentKind;
  /** File name extensions, lower case with the dot. */
  readonly extensions: readonly string[];
  /** Pages (with their text and where it came from) and chunks that know their page and boxes. */
  read(path: string, options: ReadOptions): Promise<ParsedDocument>;
  /** The page count without reading content, for formats whose files carry pages; absent otherwise. */
  countPages?(path: string, options: { password?: string }): Promise<number>;
  /** Draws pages into the store, skipping those already there; absent when pages have no image. */
  drawPages?(path: string, options: DrawOptions, store: PageImageStore): Promise<PageImageRef[]>;
  /**
   * The pages as Quire laid them out (formats without pages of their own): what drawPages draws and
   * what the viewer shows as formatted text until an image exists. Absent for PDF and pictures.
   */
  layOut?(path: string, signal?: AbortSignal): Promise<DrawablePage[]>;
  /**
   * For formats whose pages can be scans (PDF) or are pictures: the pages as OCR draws them. Such a
   * reader flags the pages whose own text is not enough (`needsOcr`) and merges `ReadOptions.ocr`.
   */
  pagesForOcr?(path: string, options: { password?: string }): Promise<OcrPageSource>;
}
