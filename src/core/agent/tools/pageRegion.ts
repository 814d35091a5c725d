/*
 * The part of a page image the agent asked a vision model to look at. Regions are named in page
 * coordinates (PDF points from the top-left, like citation boxes), so they are scaled onto the stored
 * image by the page's size before sharp cuts them out.
 */
import { loadSharp } from '../../common/sharp';
import type { BoundingBox } from '../../../shared/domain/search';

export interface PageSize {
  width: number;
  height: number;
}

/** A small region is enlarged to this long edge: vision models read small print poorly. */
const MIN_LONG_EDGE = 768;

/** Reads `"x,y,width,height"` (points); null for an empty string (the whole page). */
export function parseRegion(text: string): BoundingBox | null | 'invalid' {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  const numbers = trimmed.split(/[\s,]+/).map(Number);
  if (numbers.length !== 4 || numbers.some((n) => !Number.isFinite(n))) return 'invalid';
  const [x, y, width, height] = numbers as [number, number, number, number];
  if (width <= 0 || height <= 0) return 'invalid';
  return { x, y, width, height };
}

/**
 * Cuts `region` (page points) out of a page image drawn at any scale; PNG out. Null when the region
 * lies outside the page.
 */
export async function cropToRegion(
  image: Uint8Array,
  page: PageSize,
  region: BoundingBox,
): Promise<Uint8Array | null> {
  const meta = await loadSharp()(image).metadata();
  const imageWidth = meta.width ?? 0;
  const imageHeight = meta.height ?? 0;
  const scaleX = imageWidth / page.width;
  const scaleY = imageHeight / page.height;
  const left = Math.max(0, Math.floor(region.x * scaleX));
  const top = Math.max(0, Math.floor(region.y * scaleY));
  const right = Math.min(imageWidth, Math.ceil((region.x + region.width) * scaleX));
  const bottom = Math.min(imageHeight, Math.ceil((region.y + region.height) * scaleY));
  if (right - left < 1 || bottom - top < 1) return null;
  let crop = loadSharp()(image).extract({ left, top, width: right - left, height: bottom - top });
  if (Math.max(right - left, bottom - top) < MIN_LONG_EDGE) {
    const landscape = right - left >= bottom - top;
    crop = crop.resize(landscape ? { width: MIN_LONG_EDGE } : { height: MIN_LONG_EDGE });
  }
  return new Uint8Array(await crop.png().toBuffer());
}
