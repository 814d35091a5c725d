import type { Metadata } from 'sharp';
import { loadSharp } from '../../../common/sharp';
import { QuireError } from '../../../../shared/errors';
import type { RasterPage } from '../../render/raster';

// About 16k x 16k: larger pictures are refused rather than decoded into gigabytes of memory.
const LIMIT_PIXELS = 268_402_689;
// A picture that says nothing believable about its resolution is taken for a photo of a US Letter page.
const ASSUMED_LONG_EDGE_PT = 792;
const BELIEVABLE_DPI = { min: 100, max: 1200 };

/** One frame of a picture, upright (EXIF orientation applied): a page. */
export interface PictureFrame {
  /** 1-based. */
  page: number;
  widthPx: number;
  heightPx: number;
  /** The page's size in points, from the picture's resolution, else as a Letter-sized page. */
  widthPt: number;
  heightPt: number;
}

export interface PictureInfo {
  format: string;
  /** A multi-page TIFF has several frames; every other picture one. */
  frames: PictureFrame[];
}

/**
 * Checks a picture (PNG, JPEG, TIFF with all its frames, WebP, HEIC where this system's decoder reads
 * it) with sharp and measures its frames: a damaged or unknown picture fails here with the reason.
 */
export async function inspectPicture(path: string): Promise<PictureInfo> {
  try {
    const first = await open(path, 0).metadata();
    // The header can be whole while the pixels are cut off: decoding a small copy finds out.
    await open(path, 0).resize(64, 64, { fit: 'inside' }).raw().toBuffer();
    const count = Math.max(1, first.pages ?? 1);
    const frames: PictureFrame[] = [frameOf(first, 1)];
    for (let page = 2; page <= count; page++)
      frames.push(frameOf(await open(path, page - 1).metadata(), page));
    return { format: first.format ?? 'image', frames };
  } catch (error) {
    throw pictureError(error, path);
  }
}

/** A frame drawn upright with its long edge `longEdge` pixels (RGB). */
export async function drawFrame(path: string, page: number, longEdge: number): Promise<RasterPage> {
  try {
    const { data, info } = await open(path, page - 1)
      .resize(longEdge, longEdge, { fit: 'inside' })
      .flatten({ background: '#ffffff' })
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const pixels = new Uint8Array(data.buffer, data.byteOffset, data.length);
    return { pixels, channels: 3, width: info.width, height: info.height };
  } catch (error) {
    throw pictureError(error, path);
  }
}

function open(path: string, frame: number) {
  return loadSharp()(path, {
    failOn: 'error',
    limitInputPixels: LIMIT_PIXELS,
    page: frame,
    autoOrient: true,
  });
}

function frameOf(metadata: Metadata, page: number): PictureFrame {
  const widthPx = metadata.autoOrient?.width ?? metadata.width;
  const heightPx = metadata.autoOrient?.height ?? metadata.height;
  if (!widthPx || !heightPx) throw new QuireError('unsupported', 'This picture has no size: it is damaged.');
  const dpi = metadata.density;
  const pointsPerPixel =
    dpi !== undefined && dpi >= BELIEVABLE_DPI.min && dpi <= BELIEVABLE_DPI.max
      ? 72 / dpi
      : ASSUMED_LONG_EDGE_PT / Math.max(widthPx, heightPx);
  return { page, widthPx, heightPx, widthPt: widthPx * pointsPerPixel, heightPt: heightPx * pointsPerPixel };
}

function pictureError(error: unknown, path: string): unknown {
  if (error instanceof QuireError) return error;
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return new QuireError('not_found', `The file is gone: ${path}`);
  if (/\.hei[cf]$/i.test(path)) {
    return new QuireError(
      'unsupported_format',
      'This HEIC picture cannot be decoded on this system: export it as JPEG (Photos: File > Export) to have it read.',
    );
  }
  const reason = error instanceof Error ? error.message : String(error);
  return new QuireError('unsupported', `This picture is damaged or not a picture Quire reads (${reason}).`);
}
