/*
 * Idefics3-style image preprocessing, as ColModernVBERT was trained with: scale the long edge to
 * `longestEdge`, round both sides up to whole tiles, cut row by row into `tileSize` squares, add the
 * whole image squeezed to one tile as a global view, then scale pixels and normalise per channel.
 * Resampling is LANCZOS at every step (sharp's lanczos3).
 */
import { loadSharp } from '../../common/sharp';
import type { ImageSettings } from './colModernVBertSettings';

export interface PreprocessedImage {
  /** `tiles x 3 x tileSize x tileSize`, channel-first, normalised. */
  pixels: Float32Array;
  tiles: number;
  /** The grid the tiles were cut from; 0 x 0 when the image is one tile (no global view then). */
  rows: number;
  cols: number;
  tileSize: number;
}

interface RgbImage {
  data: Buffer;
  width: number;
  height: number;
}

async function decodeRgb(bytes: Uint8Array): Promise<RgbImage> {
  const { data, info } = await loadSharp()(bytes, { failOn: 'error', limitInputPixels: 1e8 })
    .removeAlpha()
    .toColourspace('srgb')
    .raw()
    .toBuffer({ resolveWithObject: true });
  if (info.channels !== 3) throw new Error(`expected 3 colour channels, got ${info.channels}`);
  return { data, width: info.width, height: info.height };
}

async function resized(image: RgbImage, width: number, height: number): Promise<RgbImage> {
  if (width === image.width && height === image.height) return image;
  const { data, info } = await loadSharp()(image.data, {
    raw: { width: image.width, height: image.height, channels: 3 },
  })
    .resize(width, height, { fit: 'fill', kernel: 'lanczos3' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/** The size after scaling the long edge to `longestEdge`, both sides even (as the reference does). */
export function longEdgeSize(width: number, height: number, longestEdge: number): [number, number] {
  const aspect = width / height;
  let newWidth: number;
  let newHeight: number;
  if (width >= height) {
    newWidth = longestEdge;
    newHeight = Math.floor(newWidth / aspect);
  } else {
    newHeight = longestEdge;
    newWidth = Math.floor(newHeight * aspect);
  }
  return [Math.max(2, newWidth + (newWidth % 2)), Math.max(2, newHeight + (newHeight % 2))];
}

/** Both sides rounded up to whole tiles, the short one from the long one through the aspect ratio. */
export function wholeTileSize(width: number, height: number, tile: number): [number, number] {
  const aspect = width / height;
  if (width >= height) {
    const newWidth = Math.ceil(width / tile) * tile;
    return [newWidth, Math.max(tile, Math.ceil(Math.floor(newWidth / aspect) / tile) * tile)];
  }
  const newHeight = Math.ceil(height / tile) * tile;
  return [Math.max(tile, Math.ceil(Math.floor(newHeight * aspect) / tile) * tile), newHeight];
}

/** Writes one `size x size` window of `image` starting at (left, top) into `out` as normalised CHW floats. */
function writeTile(
  image: RgbImage,
  left: number,
  top: number,
  size: number,
  settings: ImageSettings,
  out: Float32Array,
  tileIndex: number,
): void {
  const plane = size * size;
  const base = tileIndex * 3 * plane;
  const scale = settings.rescaleFactor;
  const mean = settings.normalize ? settings.mean : [0, 0, 0];
  const std = settings.normalize ? settings.std : [1, 1, 1];
  for (let c = 0; c < 3; c++) {
    const offset = mean[c]!;
    const divide = std[c]!;
    const channelBase = base + c * plane;
    for (let y = 0; y < size; y++) {
      const source = ((top + y) * image.width + left) * 3 + c;
      const target = channelBase + y * size;
      for (let x = 0; x < size; x++)
        out[target + x] = (image.data[source + x * 3]! * scale - offset) / divide;
    }
  }
}

/** Decodes an encoded image (PNG, JPEG, WebP...) and turns it into the model's pixel input. */
export async function preprocessImage(
  bytes: Uint8Array,
  settings: ImageSettings,
): Promise<PreprocessedImage> {
  let image = await decodeRgb(bytes);
  if (settings.resize)
    image = await resized(image, ...longEdgeSize(image.width, image.height, settings.longestEdge));
  const tile = settings.tileSize;
  if (!settings.split) {
    const square = await resized(image, tile, tile);
    const pixels = new Float32Array(3 * tile * tile);
    writeTile(square, 0, 0, tile, settings, pixels, 0);
    return { pixels, tiles: 1, rows: 0, cols: 0, tileSize: tile };
  }
  image = await resized(image, ...wholeTileSize(image.width, image.height, tile));
  if (image.width <= tile && image.height <= tile) {
    const pixels = new Float32Array(3 * tile * tile);
    writeTile(await resized(image, tile, tile), 0, 0, tile, settings, pixels, 0);
    return { pixels, tiles: 1, rows: 0, cols: 0, tileSize: tile };
  }
  // After rounding up, every tile is exactly `tile` pixels square.
  const rows = image.height / tile;
  const cols = image.width / tile;
  const tiles = rows * cols + 1;
  const pixels = new Float32Array(tiles * 3 * tile * tile);
  for (let row = 0; row < rows; row++) {
    for (let col = 0; col < cols; col++) {
      writeTile(image, col * tile, row * tile, tile, settings, pixels, row * cols + col);
    }
  }
  writeTile(await resized(image, tile, tile), 0, 0, tile, settings, pixels, tiles - 1);
  return { pixels, tiles, rows, cols, tileSize: tile };
}
