import type { ErrorInfo } from '../../../shared/errors';
import type { DocumentKind } from '../../../shared/domain/library';
import type { DrawablePage } from '../render/laidOutRaster';
import type { OcrEngineChoice } from '../ocr/ocrEngines';
import type { OcrPageOutcome } from '../ocr/recognizePdfPages';
import type { PdfPagesRead } from '../pdf/parsePdf';
import type { PageImageRef, ParsedDocument } from '../types';

/** Where OCR results are kept and which settings they must match. */
export interface OcrSource {
  storeRoot: string;
  contentHash: string;
  engine: OcrEngineChoice;
  languages: string[];
  /** The folder of Tesseract's fast models when they serve these languages; else the packaged ones read. */
  fastModelDir?: string | null;
}

/** Messages between the document pool and its worker threads. */
export type DocumentJob =
  | {
      type: 'parse';
      path: string;
      kind: DocumentKind;
      password?: string;
      ocr?: OcrSource;
      /** Judge PDF text layers by their text alone; PDFium's measure comes later (layerCheck). */
      textOnly?: boolean;
      /** A PDF with more pages than this is not read: its page count comes back (a LongPdf). */
      rangesFrom?: number;
      /** PDF: read no page past this one (the per-document page limit). */
      maxPages?: number;
    }
  | {
      /** Some pages of a long PDF, read but not laid out (the pool lays out the whole file). */
      type: 'readPdfRange';
      path: string;
      pages: number[];
      withTitle: boolean;
      password?: string;
      ocr?: OcrSource;
      textOnly?: boolean;
    }
  | { type: 'layerCheck'; path: string; pages: number[]; password?: string }
  | { type: 'ocr'; path: string; kind: DocumentKind; pages: number[]; password?: string; ocr: OcrSource }
  | { type: 'countPages'; path: string; kind: DocumentKind; password?: string }
  | { type: 'pageText'; path: string; kind: DocumentKind; page: number }
  | {
      type: 'render';
      /** Its format's reader draws the pages. */
      kind: DocumentKind;
      path: string;
      storeRoot: string;
      contentHash: string;
      pages?: number[];
      password?: string;
      longEdge?: number;
    };

export interface JobRequest {
  id: number;
  job: DocumentJob;
}

export type JobResponse =
  | {
      id: number;
      ok: true;
      value:
        | ParsedDocument
        | PdfPagesRead
        | LongPdf
        | PageImageRef[]
        | OcrPageOutcome[]
        | number
        | number[]
        | DrawablePage;
    }
  | { id: number; ok: false; error: ErrorInfo };

/** The answer to a parse job with `rangesFrom` when the PDF is longer: the pool reads it in ranges. */
export interface LongPdf {
  longPdfPages: number;
  /** Pages up to the page limit that repeat an earlier page, each with it: the ranges skip them. */
  repeats?: Array<[page: number, first: number]>;
}
