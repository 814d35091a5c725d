import type { RasterPage } from '../render/raster';
import type { OcrPageRecord, StoredWord } from './ocrStore';
import { boxOnPage, shrinkImage, toGrey, turnImage, type PageFrame } from './pageGeometry';
import type { GreyImage, OcrEngine, QuarterTurn, RecognizedPage } from './types';

/** Words the engine is less sure of than this are noise (specks, halftone, a photo's texture). */
export const MIN_WORD_CONFIDENCE = 0.3;
// Orientation is detected on a small copy: on every bench page the detector gave the same turn at
// 1000 px as at 2000, in less time and a quarter of the pixels (`npm run bench -- ocr`).
const ORIENTATION_LONG_EDGE = 1000;
// Below this detector score a quarter turn is a guess; it is kept only if it reads better than upright.
const SURE_ORIENTATION = 5;
// A page that reads worse than this after a turn is read upright too, and the better reading kept.
const CHECK_BELOW_CONFIDENCE = 0.75;

export interface RecognizePageOptions {
  languages: readonly string[];
  /** The resolution the page was drawn at. */
  dpi?: number;
  signal?: AbortSignal;
}

/**
 * Reads one drawn page: finds which way up it is, reads it with the engine and maps every word back
 * onto the page as drawn. Throws only when the engine fails or the signal aborts.
 */
export async function recognizePage(
  engine: OcrEngine,
  raster: RasterPage,
  options: RecognizePageOptions,
): Promise<OcrPageRecord> {
  const grey = toGrey(raster, options.dpi);
  const guess = engine.detectOrientation
    ? await engine.detectOrientation(shrinkImage(grey, ORIENTATION_LONG_EDGE), options.signal)
    : null;
  const turn: QuarterTurn = guess?.turn ?? 0;
  let best = await readTurned(engine, grey, turn, options);
  const unsure = guess !== null && guess.confidence < SURE_ORIENTATION;
  if (turn !== 0 && unsure && (best.confidence ?? 0) < CHECK_BELOW_CONFIDENCE) {
    const upright = await readTurned(engine, grey, 0, options);
    if ((upright.confidence ?? 0) > (best.confidence ?? 0)) best = upright;
  }
  return best;
}

async function readTurned(
  engine: OcrEngine,
  grey: GreyImage,
  turn: QuarterTurn,
  options: RecognizePageOptions,
): Promise<OcrPageRecord> {
  options.signal?.throwIfAborted();
  const page = await engine.recognize(turnImage(grey, turn), {
    languages: options.languages,
    ...(options.signal ? { signal: options.signal } : {}),
  });
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
