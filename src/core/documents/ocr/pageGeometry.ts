import type { RasterPage } from '../render/raster';
import type { GreyImage, PixelBox, QuarterTurn } from './types';

/*
 * The pixel geometry around an OCR engine: the page is drawn, made grey, turned upright (a quarter
 * turn at a time) and possibly deskewed by the engine; every word box is mapped back through those
 * steps into a share of the drawn page (0..1), which any page size in points can then scale.
 */

/** Luma (Rec. 601) of an RGB or RGBA raster; pages are drawn on white, so alpha carries nothing. */
export function toGrey(raster: RasterPage, dpi?: number): GreyImage {
  const { pixels, channels, width, height } = raster;
  const grey = new Uint8Array(width * height);
  for (let at = 0, from = 0; at < grey.length; at++, from += channels) {
    grey[at] = (pixels[from]! * 299 + pixels[from + 1]! * 587 + pixels[from + 2]! * 114 + 500) / 1000;
  }
  return { pixels: grey, width, height, ...(dpi ? { dpi } : {}) };
}

/** The image turned clockwise by `turn` degrees. */
export function turnImage(image: GreyImage, turn: QuarterTurn): GreyImage {
  if (turn === 0) return image;
  const { pixels, width, height } = image;
  const sideways = turn !== 180;
  const outWidth = sideways ? height : width;
  const outHeight = sideways ? width : height;
  const out = new Uint8Array(pixels.length);
  for (let y = 0; y < height; y++) {
    const row = y * width;
    for (let x = 0; x < width; x++) {
      let u: number;
      let v: number;
      if (turn === 90) {
        u = height - 1 - y;
        v = x;
      } else if (turn === 180) {
        u = width - 1 - x;
        v = height - 1 - y;
      } else {
        u = y;
        v = width - 1 - x;
      }
      out[v * outWidth + u] = pixels[row + x]!;
    }
  }
  return { pixels: out, width: outWidth, height: outHeight, ...(image.dpi ? { dpi: image.dpi } : {}) };
}

/** How a box found in the upright (and deskewed) image maps back onto the drawn page. */
export interface PageFrame {
  /** Size of the page as drawn, before any turn. */
  width: number;
  height: number;
  /** The quarter turn applied before reading. */
  turn: QuarterTurn;
  /** The engine's deskew, radians, about the centre of the upright image. */
  deskewRadians: number;
}

/** A share of the drawn page: x and width over its width, y and height over its height. */
export interface UnitBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Maps a box from the upright, deskewed image back onto the drawn page, as shares of its size. */
export function boxOnPage(box: PixelBox, frame: PageFrame): UnitBox {
  const sideways = frame.turn === 90 || frame.turn === 270;
  const uprightWidth = sideways ? frame.height : frame.width;
  const uprightHeight = sideways ? frame.width : frame.height;
  const cx = uprightWidth / 2;
  const cy = uprightHeight / 2;
  const cos = Math.cos(-frame.deskewRadians);
  const sin = Math.sin(-frame.deskewRadians);
  const corners: Array<[number, number]> = [
    [box.x, box.y],
    [box.x + box.width, box.y],
    [box.x, box.y + box.height],
    [box.x + box.width, box.y + box.height],
  ];
  let left = Infinity;
  let top = Infinity;
  let right = -Infinity;
  let bottom = -Infinity;
  for (const [px, py] of corners) {
    // Undo the deskew: the engine turned the upright image by deskewRadians about its centre.
    const dx = px - cx;
    const dy = py - cy;
    const u = cx + dx * cos - dy * sin;
    const v = cy + dx * sin + dy * cos;
    // Undo the quarter turn (the upright image is the page turned clockwise by `turn`).
    const [x, y] = unturn(u, v, frame);
    left = Math.min(left, x);
    top = Math.min(top, y);
    right = Math.max(right, x);
    bottom = Math.max(bottom, y);
  }
  const clampX = (x: number) => Math.min(Math.max(x, 0), frame.width);
  const clampY = (y: number) => Math.min(Math.max(y, 0), frame.height);
  const x0 = clampX(left);
  const y0 = clampY(top);
  return {
    x: x0 / frame.width,
    y: y0 / frame.height,
    width: Math.max(0, clampX(right) - x0) / frame.width,
    height: Math.max(0, clampY(bottom) - y0) / frame.height,
  };
}

function unturn(u: number, v: number, frame: PageFrame): [number, number] {
  switch (frame.turn) {
    case 90:
      return [v, frame.height - u];
    case 180:
      return [frame.width - u, frame.height - v];
    case 270:
      return [frame.width - v, u];
    default:
      return [u, v];
  }
}

/** The image scaled down so its long edge is at most `longEdge` (nearest pixel; for detection only). */
export function shrinkImage(image: GreyImage, longEdge: number): GreyImage {
  const scale = longEdge / Math.max(image.width, image.height);
  if (scale >= 1) return image;
  const width = Math.max(1, Math.round(image.width * scale));
  const height = Math.max(1, Math.round(image.height * scale));
  const pixels = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    const from = Math.min(image.height - 1, Math.floor(y / scale)) * image.width;
    for (let x = 0; x < width; x++) {
      pixels[y * width + x] = image.pixels[from + Math.min(image.width - 1, Math.floor(x / scale))]!;
    }
  }
  return { pixels, width, height, ...(image.dpi ? { dpi: Math.round(image.dpi * scale) } : {}) };
}

/**
 * The drawn page in grey, scaled by `factor` (< 1) as it is made grey: each pixel is the mean of
 * the pixels it covers, so thin strokes fade instead of vanishing, and the full-size grey copy is
 * never made (one row of sums at a time).
 */
export function greyScaled(raster: RasterPage, factor: number, dpi?: number): GreyImage {
  if (factor >= 1) return toGrey(raster, dpi);
  const { pixels: source, channels } = raster;
  const width = Math.max(1, Math.round(raster.width * factor));
  const height = Math.max(1, Math.round(raster.height * factor));
  const columnOf = new Uint32Array(raster.width);
  for (let x = 0; x < raster.width; x++)
    columnOf[x] = Math.min(width - 1, Math.floor((x * width) / raster.width));
  const sums = new Float64Array(width);
  const counts = new Uint32Array(width);
  const pixels = new Uint8Array(width * height);
  const flush = (row: number) => {
    for (let x = 0; x < width; x++) {
      pixels[row * width + x] = Math.round(sums[x]! / Math.max(1, counts[x]!));
      sums[x] = 0;
      counts[x] = 0;
    }
  };
  let row = 0;
  for (let y = 0; y < raster.height; y++) {
    const target = Math.min(height - 1, Math.floor((y * height) / raster.height));
    if (target !== row) {
      flush(row);
      row = target;
    }
    for (let x = 0, from = y * raster.width * channels; x < raster.width; x++, from += channels) {
      const at = columnOf[x]!;
      sums[at]! += (source[from]! * 299 + source[from + 1]! * 587 + source[from + 2]! * 114) / 1000;
      counts[at]! += 1;
    }
  }
  flush(row);
  return { pixels, width, height, ...(dpi ? { dpi: dpi * (width / raster.width) } : {}) };
}

/**
 * Frees pixels now instead of at the next garbage collection: a page's images are megabytes each,
 * and left to the collector they pile up over a few pages. Only pixels that fill their own buffer
 * are freed (never a view into another's); they are empty after.
 */
export function releasePixels(pixels: Uint8Array): void {
  const buffer = pixels.buffer as ArrayBuffer & { transfer?: (length: number) => ArrayBuffer };
  if (pixels.byteOffset !== 0 || pixels.byteLength !== buffer.byteLength) return;
  try {
    buffer.transfer?.(0);
  } catch {
    // A buffer that cannot be detached (a WebAssembly memory's) waits for the collector.
  }
}

/** A rectangle of the image (pixels, clamped to it). */
export function cropImage(image: GreyImage, box: PixelBox): GreyImage {
  const x0 = Math.max(0, Math.min(image.width - 1, Math.round(box.x)));
  const y0 = Math.max(0, Math.min(image.height - 1, Math.round(box.y)));
  const width = Math.max(1, Math.min(image.width - x0, Math.round(box.width)));
  const height = Math.max(1, Math.min(image.height - y0, Math.round(box.height)));
  const pixels = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    const from = (y0 + y) * image.width + x0;
    pixels.set(image.pixels.subarray(from, from + width), y * width);
  }
  return { pixels, width, height, ...(image.dpi ? { dpi: image.dpi } : {}) };
}
