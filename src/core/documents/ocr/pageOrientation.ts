import { cropImage, turnImage } from './pageGeometry';
import { densestBand, textLineEvidence, type TextLineEvidence } from './textLines';
import type { GreyImage, OcrEngine, QuarterTurn, RecognizedPage } from './types';

/*
 * Which way up a page is, found as cheaply as the page allows. The ink's text lines say whether
 * the page is upright or upside down (lines across) or turned a quarter (lines down); a few of its
 * lines read both ways round then say which of the two, and the page is read only once, the right
 * way up. The orientation detector (Tesseract's OSD, a second model in its own thread) runs only
 * when neither tells.
 */

/** How the page's turn was decided; `guessed` when no check could tell. */
export type OrientationSource = 'text lines' | 'detector' | 'guessed';

export interface PageOrientation {
  turn: QuarterTurn;
  /** The skew of the turned page when the ink measured it; undefined leaves it to the engine. */
  deskewRadians: number | undefined;
  source: OrientationSource;
  /** The detector's score when it decided (engine-specific scale), for the unsure-turn check. */
  detectorConfidence?: number;
}

// A probe reads this many lines of the page's densest text, over this share of its width.
const PROBE_LINES = 4;
const PROBE_WIDTH = 0.6;
// A probe this sure is taken without reading the other way round. On the bench's pages a probe of
// upright lines read at 0.87-0.89 (words cut at its ends), of upside-down lines at 0.13-0.25.
const PROBE_SURE = 0.85;
// Two probes closer than this do not tell which way up the page is, nor a winner below the floor
// (a band of a photo or a table's rules reads badly either way round).
const PROBE_MARGIN = 0.08;
const PROBE_FLOOR = 0.6;
// The orientation detector's score below which its quarter turn is a guess.
const SURE_DETECTOR = 5;

export interface OrientationOptions {
  languages: readonly string[];
  signal?: AbortSignal;
}

/** Letter-weighted mean confidence of everything read; 0 when nothing was. */
export function readingConfidence(page: RecognizedPage): number {
  let letters = 0;
  let weighted = 0;
  for (const line of page.lines) {
    for (const word of line.words) {
      letters += word.text.length;
      weighted += word.text.length * word.confidence;
    }
  }
  return letters > 0 ? weighted / letters : 0;
}

/**
 * Finds the page's turn (and skew) from `small`, a copy of `page` of about 1000 px, reading a few
 * of the page's lines with the engine when the ink alone cannot tell upright from upside down.
 */
export async function findOrientation(
  engine: OcrEngine,
  page: GreyImage,
  small: GreyImage,
  evidence: TextLineEvidence,
  options: OrientationOptions,
): Promise<PageOrientation> {
  if (evidence.axis === null) return detect(engine, small, null, options);
  const candidates: [QuarterTurn, QuarterTurn] = evidence.axis === 'across' ? [0, 180] : [90, 270];
  const band = densestBand(small, evidence.axis, evidence.linePitch, PROBE_LINES);
  const crop = bandOf(page, evidence.axis, band);
  const probe = async (turn: QuarterTurn) => {
    options.signal?.throwIfAborted();
    const read = await engine.recognize(turnImage(crop, turn), {
      languages: options.languages,
      deskewRadians: 0,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    return readingConfidence(read);
  };
  const first = await probe(candidates[0]);
  if (first >= PROBE_SURE) return withSkew(candidates[0], small, evidence, 'text lines');
  const second = await probe(candidates[1]);
  const likelier = first >= second ? candidates[0] : candidates[1];
  if (Math.abs(first - second) >= PROBE_MARGIN && Math.max(first, second) >= PROBE_FLOOR) {
    return withSkew(likelier, small, evidence, 'text lines');
  }
  const other = likelier === candidates[0] ? candidates[1] : candidates[0];
  const detected = await detect(engine, small, [likelier, other], options);
  return withSkew(detected.turn, small, evidence, detected.source);
}

/** The band of the page (full length along its lines, a share of its width) the probe reads. */
function bandOf(page: GreyImage, axis: 'across' | 'down', band: { from: number; to: number }): GreyImage {
  const margin = (1 - PROBE_WIDTH) / 2;
  return axis === 'across'
    ? cropImage(page, {
        x: page.width * margin,
        y: page.height * band.from,
        width: page.width * PROBE_WIDTH,
        height: page.height * (band.to - band.from),
      })
    : cropImage(page, {
        x: page.width * band.from,
        y: page.height * margin,
        width: page.width * (band.to - band.from),
        height: page.height * PROBE_WIDTH,
      });
}

/**
 * The turn with the skew measured on the turned page (a quarter turn changes which way lines lean);
 * a turn the ink's lines disagree with leaves the skew to the engine.
 */
function withSkew(
  turn: QuarterTurn,
  small: GreyImage,
  evidence: TextLineEvidence,
  source: OrientationSource,
): PageOrientation {
  const sideways = turn === 90 || turn === 270;
  if (evidence.axis === null || sideways !== (evidence.axis === 'down')) {
    return { turn, deskewRadians: undefined, source };
  }
  const skew = sideways ? textLineEvidence(turnImage(small, turn)).skewRadians : evidence.skewRadians;
  return { turn, deskewRadians: skew, source };
}

/**
 * The orientation detector's answer. A sure answer is kept even against the ink's lines (a page of
 * table rules can look like lines running down); an unsure one is a guess, taken when it is one of
 * `candidates`, else the likelier candidate (`candidates[0]`) is.
 */
async function detect(
  engine: OcrEngine,
  small: GreyImage,
  candidates: readonly QuarterTurn[] | null,
  options: OrientationOptions,
): Promise<PageOrientation> {
  const guess = engine.detectOrientation ? await engine.detectOrientation(small, options.signal) : null;
  if (guess === null) return { turn: candidates?.[0] ?? 0, deskewRadians: undefined, source: 'guessed' };
  const sure = guess.confidence >= SURE_DETECTOR;
  const fits = candidates === null || candidates.includes(guess.turn);
  return {
    turn: sure || fits ? guess.turn : candidates[0]!,
    deskewRadians: undefined,
    source: sure ? 'detector' : 'guessed',
    detectorConfidence: guess.confidence,
  };
}
