import type { GreyImage } from './types';

/*
 * What a page's ink says about its text lines, measured on a small copy in a few milliseconds:
 * whether the lines run across the image or up and down (a page turned a quarter), how far they
 * are skewed, and how far apart they are. Lines of text make the ink's projection across them
 * peak at every line and drop between lines; the projection is sharpest along the lines' own
 * direction and angle (the projection-profile method).
 */

export interface TextLineEvidence {
  /** Which way the lines run: across the image, up and down, or too little text to tell. */
  axis: 'across' | 'down' | null;
  /**
   * The lines' skew in radians when they run across (clockwise positive in image coordinates,
   * Tesseract's sign); 0 when they run down or cannot be told.
   */
  skewRadians: number;
  /** The distance from one line to the next, in the image's pixels; null when not found. */
  linePitch: number | null;
}

// Pixels darker than this share of the page's mean brightness count as ink.
const INK_SHARE = 0.6;
// Fewer ink pixels than this and the page holds too little text for any of this to mean anything.
const MIN_INK = 400;
// Skews are looked for up to about 8 degrees, first in half-degree steps, then in 0.05 degree steps.
const MAX_SKEW = 0.14;
const COARSE_STEP = 0.0087;
const FINE_STEP = 0.00087;
// One direction's profile must be this much sharper than the other's to say which way lines run.
const AXIS_MARGIN = 1.25;
// Skews smaller than this are left alone (about 0.3 degrees, as Tesseract's own deskew does).
const MIN_SKEW = 0.005;

/** The ink pixels of an image as coordinate pairs. */
function inkOf(image: GreyImage): Int32Array {
  const { pixels, width, height } = image;
  let sum = 0;
  for (const value of pixels) sum += value;
  const threshold = (sum / Math.max(1, pixels.length)) * INK_SHARE;
  const points: number[] = [];
  for (let y = 0; y < height; y++) {
    for (let x = 0, at = y * width; x < width; x++, at++) {
      if (pixels[at]! < threshold) points.push(x, y);
    }
  }
  return Int32Array.from(points);
}

/** The ink's profile across lines at `angle`: ink pixels per row (per column when `down`). */
function profile(ink: Int32Array, length: number, angle: number, down: boolean): Float64Array {
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  const pad = Math.ceil(length * Math.abs(sin)) + 1;
  const bins = new Float64Array(length + 2 * pad);
  for (let at = 0; at < ink.length; at += 2) {
    const x = down ? ink[at + 1]! : ink[at]!;
    const y = down ? ink[at]! : ink[at + 1]!;
    const row = Math.round(y * cos - x * sin) + pad;
    if (row >= 0 && row < bins.length) bins[row]! += 1;
  }
  return bins;
}

/** How sharply the ink piles up in rows: the profile's squares over its total squared, times the rows (1 if even). */
function score(bins: Float64Array, count: number, rows: number): number {
  let squares = 0;
  for (const value of bins) squares += value * value;
  return (squares * rows) / (count * count);
}

/** The angle whose profile is sharpest, searched coarsely then finely, and that profile. */
function sharpestAngle(
  ink: Int32Array,
  across: number,
  down: boolean,
): { angle: number; score: number; bins: Float64Array } {
  const count = ink.length / 2;
  let best: { angle: number; score: number; bins: Float64Array } = {
    angle: 0,
    score: -1,
    bins: new Float64Array(0),
  };
  const tryAngle = (angle: number) => {
    const bins = profile(ink, across, angle, down);
    const value = score(bins, count, across);
    if (value > best.score) best = { angle, score: value, bins };
  };
  for (let angle = -MAX_SKEW; angle <= MAX_SKEW + 1e-9; angle += COARSE_STEP) tryAngle(angle);
  const centre = best.angle;
  for (let angle = centre - COARSE_STEP; angle <= centre + COARSE_STEP + 1e-9; angle += FINE_STEP) {
    tryAngle(angle);
  }
  return best;
}

/** The distance between lines: the first strong repeat in the profile (its autocorrelation's first peak). */
export function pitchOf(bins: Float64Array): number | null {
  const n = bins.length;
  let mean = 0;
  for (const value of bins) mean += value;
  mean /= Math.max(1, n);
  const centred = Float64Array.from(bins, (value) => value - mean);
  let zero = 0;
  for (const value of centred) zero += value * value;
  if (zero <= 0) return null;
  const maxLag = Math.min(n >> 2, 200);
  const correlation = new Float64Array(maxLag + 2);
  for (let lag = 1; lag <= maxLag + 1; lag++) {
    let sum = 0;
    for (let at = 0; at + lag < n; at++) sum += centred[at]! * centred[at + lag]!;
    correlation[lag] = sum / zero;
  }
  // The first local maximum after the correlation has gone below zero, if it repeats strongly enough.
  let dipped = false;
  for (let lag = 2; lag <= maxLag; lag++) {
    if (correlation[lag]! < 0) dipped = true;
    const peak = correlation[lag]! >= correlation[lag - 1]! && correlation[lag]! >= correlation[lag + 1]!;
    if (dipped && peak && correlation[lag]! > 0.2) return lag;
  }
  return null;
}

/** Reads the text lines' direction, skew and pitch from a (small) grey image. */
export function textLineEvidence(image: GreyImage): TextLineEvidence {
  const ink = inkOf(image);
  if (ink.length / 2 < MIN_INK) return { axis: null, skewRadians: 0, linePitch: null };
  const across = sharpestAngle(ink, image.height, false);
  const down = sharpestAngle(ink, image.width, true);
  const axis =
    across.score > down.score * AXIS_MARGIN
      ? 'across'
      : down.score > across.score * AXIS_MARGIN
        ? 'down'
        : null;
  const chosen = axis === 'down' ? down : across;
  // Tesseract's sign is the opposite of the lines' slope: it gives the turn that straightens them.
  const skew = axis === 'across' && Math.abs(across.angle) >= MIN_SKEW ? -across.angle : 0;
  return { axis, skewRadians: skew, linePitch: axis ? pitchOf(chosen.bins) : null };
}

/**
 * The stretch along `axis`'s cross direction (rows when lines run across, columns when they run
 * down) that holds the most ink, as shares of the image: where a few lines of text can be read to
 * tell which way up the page is. `lines` is how many line pitches it spans.
 */
export function densestBand(
  image: GreyImage,
  axis: 'across' | 'down',
  linePitch: number | null,
  lines: number,
): { from: number; to: number } {
  const ink = inkOf(image);
  const length = axis === 'across' ? image.height : image.width;
  const counts = new Float64Array(length);
  for (let at = 0; at < ink.length; at += 2) counts[axis === 'across' ? ink[at + 1]! : ink[at]!]! += 1;
  const span = Math.min(length, Math.max(8, Math.round((linePitch ?? length * 0.02) * lines)));
  let sum = 0;
  for (let at = 0; at < span; at++) sum += counts[at]!;
  let best = sum;
  let bestStart = 0;
  for (let start = 1; start + span <= length; start++) {
    sum += counts[start + span - 1]! - counts[start - 1]!;
    if (sum > best) {
      best = sum;
      bestStart = start;
    }
  }
  return { from: bestStart / length, to: (bestStart + span) / length };
}
