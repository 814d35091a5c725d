/*
 * The OCR engine seam: every engine (Tesseract in WebAssembly, the operating system's own) takes a
 * grey page image and returns words with boxes in that image's pixels. Orientation, deskew and the
 * mapping back to page points are done around the engine, once, for all of them.
 */

import type { RasterPage } from '../render/raster';

/**
 * A document's pages as OCR draws them. Each format whose pages can be scans (PDF; pictures) gives
 * one through its reader, and OCR maps its words back into `pageSize`'s points.
 */
export interface OcrPageSource {
  hasPage(page: number): Promise<boolean>;
  /** The page's size in points as shown (after any rotation): the space word boxes end up in. */
  pageSize(page: number): Promise<{ width: number; height: number }>;
  /** The page drawn at `longEdge` pixels on its long edge. */
  drawFull(page: number, longEdge: number): Promise<RasterPage>;
  close(): Promise<void>;
}

/** A page drawn for OCR: 8-bit grey pixels, rows top to bottom. */
export interface GreyImage {
  pixels: Uint8Array;
  width: number;
  height: number;
  /** The resolution it was drawn at, when known: engines tune their filters to it. */
  dpi?: number;
}

/** An axis-aligned rectangle in image pixels (origin top-left). */
export interface PixelBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface RecognizedWord {
  text: string;
  box: PixelBox;
  /** 0..1. */
  confidence: number;
}

/** A line as the engine grouped it; lines come in reading order. */
export interface RecognizedLine {
  words: RecognizedWord[];
}

export interface RecognizedPage {
  lines: RecognizedLine[];
  /**
   * The small rotation (radians, clockwise positive in image coordinates) the engine applied to
   * straighten a skewed page before reading it; word boxes are in that straightened image.
   */
  deskewRadians: number;
}

export interface RecognizeOptions {
  /** Tesseract-style language codes, e.g. `eng`, `eng+fra` as ['eng', 'fra']. */
  languages: readonly string[];
  /**
   * The skew to straighten the image by before reading (radians, as `RecognizedPage.deskewRadians`),
   * when it was measured already; without it an engine that deskews measures the skew itself.
   */
  deskewRadians?: number;
  signal?: AbortSignal;
}

/** The page's orientation: how far it is turned clockwise from upright. */
export type QuarterTurn = 0 | 90 | 180 | 270;

export interface OrientationGuess {
  turn: QuarterTurn;
  /** The detector's own confidence score (engine-specific scale); higher is surer. */
  confidence: number;
}

export interface OcrEngine {
  /** Stable id stored with every page it reads, e.g. `tesseract`. */
  readonly id: string;
  /** Shown to the user: "Tesseract 5 (WebAssembly)". */
  readonly label: string;
  /** Whether words come with their own boxes (otherwise only lines do, and words share them). */
  readonly wordBoxes: boolean;
  /** Language codes this engine can read here. */
  languages(): string[];
  recognize(image: GreyImage, options: RecognizeOptions): Promise<RecognizedPage>;
  /** Which way up the page is; null when the engine cannot tell (too little text). */
  detectOrientation?(image: GreyImage, signal?: AbortSignal): Promise<OrientationGuess | null>;
  dispose(): Promise<void>;
}
