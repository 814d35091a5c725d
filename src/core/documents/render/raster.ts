/**
 * A drawn page: raw pixels, rows top to bottom, RGB or RGBA. Pages are drawn on white, so a fourth
 * channel carries nothing.
 */
export interface RasterPage {
  pixels: Uint8Array;
  channels: 3 | 4;
  width: number;
  height: number;
}

/** A page drawn at its full size and as a thumbnail. */
export interface PageRasters {
  full: RasterPage;
  thumbnail: RasterPage;
}

export const DEFAULT_LONG_EDGE = 1600;
export const THUMBNAIL_LONG_EDGE = 256;
// Tiny pages (a 1-inch label) are not blown up past this scale: 8x is already 576 dpi.
const MAX_SCALE = 8;

/** The scale that gives a page of this size in points `longEdge` pixels on its long edge, capped for tiny pages. */
export function scaleForLongEdge(widthPt: number, heightPt: number, longEdge: number): number {
  const edge = Math.max(widthPt, heightPt);
  if (!(edge > 0)) return 1;
  return Math.min(longEdge / edge, MAX_SCALE);
}

/** Pixel sizes of a page's full image and thumbnail; the thumbnail is never larger than the full image. */
export function rasterSizes(widthPt: number, heightPt: number, longEdge: number) {
  const size = (scale: number) => ({
    scale,
    width: Math.max(1, Math.round(widthPt * scale)),
    height: Math.max(1, Math.round(heightPt * scale)),
  });
  const fullScale = scaleForLongEdge(widthPt, heightPt, longEdge);
  const thumbnailScale = Math.min(fullScale, scaleForLongEdge(widthPt, heightPt, THUMBNAIL_LONG_EDGE));
  return { full: size(fullScale), thumbnail: size(thumbnailScale) };
}
