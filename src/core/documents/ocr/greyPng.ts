import { deflateSync } from 'node:zlib';
import { releasePixels } from './pageGeometry';
import type { GreyImage } from './types';

/*
 * A grey image as an 8-bit greyscale PNG that carries its resolution (pHYs), so engines that read
 * files (Tesseract's Leptonica, the OS) know the dpi instead of guessing it. Fast deflate: the
 * file only travels to another thread.
 */

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  out.set(data, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

export function encodeGreyPng(image: GreyImage): Uint8Array {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(image.width, 0);
  header.writeUInt32BE(image.height, 4);
  header[8] = 8; // bit depth
  header[9] = 0; // greyscale
  const rows = Buffer.alloc((image.width + 1) * image.height);
  for (let y = 0; y < image.height; y++) {
    // Each row starts with its filter type: 0, none.
    rows.set(image.pixels.subarray(y * image.width, (y + 1) * image.width), y * (image.width + 1) + 1);
  }
  const parts = [Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header)];
  if (image.dpi) {
    const perMetre = Math.round(image.dpi / 0.0254);
    const physical = Buffer.alloc(9);
    physical.writeUInt32BE(perMetre, 0);
    physical.writeUInt32BE(perMetre, 4);
    physical[8] = 1; // unit: metre
    parts.push(chunk('pHYs', physical));
  }
  const compressed = deflateSync(rows, { level: 1 });
  releasePixels(rows);
  parts.push(chunk('IDAT', compressed), chunk('IEND', new Uint8Array(0)));
  const png = Buffer.concat(parts);
  return new Uint8Array(png.buffer, png.byteOffset, png.byteLength);
}
