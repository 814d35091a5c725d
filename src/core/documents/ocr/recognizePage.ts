import type { RasterPage } from '../render/raster';
import type { OcrPageRecord, StoredWord } from './ocrStore';
import { findOrientation, type OrientationSource } from './pageOrientation';
import { boxOnPage, greyScaled, releasePixels, turnImage, type PageFrame } from './pageGeometry';
import { textLineEvidence, type TextLineEvidence } from './textLines';
import type { GreyImage, OcrEngine, QuarterTurn, RecognizedPage } from './types';

/** Words the engine is less sure of than this are noise (specks, halftone, a photo's texture). */
export const MIN_WORD_CONFIDENCE = 0.3;
// The page's text lines are measured on a small copy: direction, skew and spacing need no detail.
const EVIDENCE_LONG_EDGE = 1000;
// Pages are read at about 150 dpi: on the bench's pages (`npm run bench -- ocr`) this read as well
// as 300 dpi (word error rate 0.042 against 0.041) in a little over half the time; 120 dpi did not
// (0.059).
export const READING_DPI = 150;
// ...unless the lines sit closer than this many pixels at 150 dpi (print under about 8 points):
// such pages are read at the resolution that gives their lines this spacing, up to the drawn one.
const MIN_LINE_PITCH = 18;
// A page drawn at the reading resolution is drawn again only when its print needs this much more.
const FINER_THAN_DRAWN = 1.1;
// A page whose turn is a guess and that reads worse than this is read as it is too, the better kept.
const CHECK_BELOW_CONFIDENCE = 0.75;

export interface RecognizePageOptions {
  languages: readonly string[];
  /** The resolution the page was drawn at. */
  dpi?: number;
  /**
   * Draws the page again at a finer resolution, for print too small to read at the one it was drawn
   * at (that drawing is freed once read); without it such a page is read as drawn.
   */
  drawFiner?: () => Promise<{ raster: RasterPage; dpi: number }>;
  signal?: AbortSignal;
}

/**
 * Reads one drawn page: finds which way up it is and how skewed from its text lines, reads it with
 * the engine at the resolution its print needs and maps every word back onto the page as drawn.
 * Throws only when the engine fails or the signal aborts.
 */
export async function recognizePage(
  engine: OcrEngine,
  raster: RasterPage,
  options: RecognizePageOptions,
): Promise<OcrPageRecord> {
  const longEdge = Math.max(raster.width, raster.height);
  const small = greyScaled(raster, EVIDENCE_LONG_EDGE / longEdge, options.dpi);
  const evidence = textLineEvidence(small);
  let grey: GreyImage | null = null;
  try {
    grey = await readingImage(raster, small, evidence, options);
    const orientation = await findOrientation(engine, grey, small, evidence, options);
    let best = await readTurned(engine, grey, orientation.turn, orientation.deskewRadians, options);
    if (
      orientation.source === 'guessed' &&
      orientation.turn !== 0 &&
      (best.confidence ?? 0) < CHECK_BELOW_CONFIDENCE
    ) {
      const upright = await readTurned(engine, grey, 0, undefined, options);
      if ((upright.confidence ?? 0) > (best.confidence ?? 0)) best = upright;
    }
    return withOrientationSource(best, orientation.source);
  } finally {
    releasePixels(small.pixels);
    if (grey) releasePixels(grey.pixels);
  }
}

/**
 * The page in grey at the resolution it is read at: the drawn page scaled down, or drawn again
 * finer when its print needs more than it was drawn at.
 */
async function readingImage(
  raster: RasterPage,
  small: GreyImage,
  evidence: TextLineEvidence,
  options: RecognizePageOptions,
): Promise<GreyImage> {
  const wanted = neededScale(raster.width, options.dpi, small, evidence);
  if (wanted <= FINER_THAN_DRAWN || !options.drawFiner) {
    return greyScaled(raster, Math.min(1, wanted), options.dpi);
  }
  options.signal?.throwIfAborted();
  const finer = await options.drawFiner();
  try {
    return greyScaled(finer.raster, readingScale(finer.raster.width, finer.dpi, small, evidence), finer.dpi);
  } finally {
    releasePixels(finer.raster.pixels);
  }
}

/** How much to scale the drawn page down for reading (1 keeps it as drawn). */
export function readingScale(
  drawnWidth: number,
  dpi: number | undefined,
  small: GreyImage,
  evidence: TextLineEvidence,
): number {
  return Math.min(1, neededScale(drawnWidth, dpi, small, evidence));
}

/** The scale the page's print needs from the drawn page; above 1 it needs a finer drawing. */
function neededScale(
  drawnWidth: number,
  dpi: number | undefined,
  small: GreyImage,
  evidence: TextLineEvidence,
): number {
  if (!dpi) return 1;
  let scale = READING_DPI / dpi;
  if (evidence.linePitch !== null) {
    const pitch = evidence.linePitch * (drawnWidth / small.width);
    scale = Math.max(scale, MIN_LINE_PITCH / pitch);
  }
  return scale;
}

/** The record says so when no check could tell which way up the page is. */
function withOrientationSource(record: OcrPageRecord, source: OrientationSource): OcrPageRecord {
  return source === 'guessed' && record.confidence !== null ? { ...record, turnGuessed: true } : record;
}

async function readTurned(
  engine: OcrEngine,
  grey: GreyImage,
  turn: QuarterTurn,
  deskewRadians: number | undefined,
  options: RecognizePageOptions,
): Promise<OcrPageRecord> {
  options.signal?.throwIfAborted();
  const turned = turnImage(grey, turn);
  const page = await engine
    .recognize(turned, {
      languages: options.languages,
      ...(deskewRadians === undefined ? {} : { deskewRadians }),
      ...(options.signal ? { signal: options.signal } : {}),
    })
    .finally(() => turned !== grey && releasePixels(turned.pixels));
  return toRecord(engine.id, options.languages, page, {
    width: grey.width,
    height: grey.height,
    turn,
    deskewRadians: page.deskewRadians,
  });
}

/** The engine's lines as a stored record: boxes on the page as drawn, noise dropped. */
export function toRecord(
  engineId: string,
  languages: readonly string[],
  page: RecognizedPage,
  frame: PageFrame,
): OcrPageRecord {
  const round = (value: number) => Math.round(value * 100_000) / 100_000;
  let letters = 0;
  let weighted = 0;
  const lines: StoredWord[][] = [];
  for (const line of page.lines) {
    const words: StoredWord[] = [];
    for (const word of line.words) {
      if (word.confidence < MIN_WORD_CONFIDENCE) continue;
      const box = boxOnPage(word.box, frame);
      words.push([
        word.text,
        round(box.x),
        round(box.y),
        round(box.width),
        round(box.height),
        round(word.confidence),
      ]);
      letters += word.text.length;
      weighted += word.text.length * word.confidence;
    }
    if (words.length > 0) lines.push(words);
  }
  return {
    version: 1,
    engine: engineId,
    languages: [...languages],
    turn: frame.turn,
    deskewRadians: frame.deskewRadians,
    confidence: letters > 0 ? round(weighted / letters) : null,
    lines,
    problem: letters > 0 ? null : 'No text was recognised on this page.',
    transcription: null,
  };
}

/** A record for a page OCR could not read at all (the engine failed on it). */
export function failedRecord(engineId: string, languages: readonly string[], reason: string): OcrPageRecord {
  return {
    version: 1,
    engine: engineId,
    languages: [...languages],
    turn: 0,
    deskewRadians: 0,
    confidence: null,
    lines: [],
    problem: `OCR failed on this page: ${reason}`,
    transcription: null,
  };
}
