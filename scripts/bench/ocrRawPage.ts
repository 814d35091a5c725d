import type { RasterPage } from '../../src/core/documents/render/raster';

/*
 * A drawn page as the OCR bench hands it to Quire's engine: a 12-byte header (width, height,
 * channels, little-endian) and the pixels, so the engine's process needs no image decoder.
 */

/** Where the page drawn for `png` at `longEdge` pixels lies beside it. */
export function rawPagePath(png: string, longEdge: number): string {
  return `${png}.${longEdge}.raw`;
}

export function rawPage(raster: RasterPage): Uint8Array {
  const out = Buffer.alloc(12 + raster.pixels.length);
  out.writeUInt32LE(raster.width, 0);
  out.writeUInt32LE(raster.height, 4);
  out.writeUInt32LE(raster.channels, 8);
  out.set(raster.pixels, 12);
  return out;
}

export function fromRawPage(bytes: Uint8Array): RasterPage {
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const channels = view.readUInt32LE(8);
  if (channels !== 3 && channels !== 4) throw new Error(`A raw page has ${channels} channels.`);
  return {
    width: view.readUInt32LE(0),
    height: view.readUInt32LE(4),
    channels,
    pixels: bytes.subarray(12),
  };
}
