import sharp, { type Metadata } from 'sharp';
import { QuireError } from '../../../../shared/errors';

// About 16k x 16k: larger pictures are refused rather than decoded into gigabytes of memory.
const LIMIT_PIXELS = 268_402_689;

export interface ImageInfo {
  format: string;
  /** Frames: a multi-page TIFF has several, every other picture one. */
  pages: number;
  width: number;
  height: number;
}

/**
 * Checks a picture (PNG, JPEG, TIFF with all its frames, WebP, HEIC where this system's decoder reads
 * it) with sharp: a damaged or unknown picture fails here with the reason.
 */
export async function inspectImage(path: string): Promise<ImageInfo> {
  let metadata: Metadata;
  try {
    const image = sharp(path, { failOn: 'error', limitInputPixels: LIMIT_PIXELS });
    metadata = await image.metadata();
    // The header can be whole while the pixels are cut off: decoding a small copy finds out.
    await image.resize(64, 64, { fit: 'inside' }).raw().toBuffer();
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new QuireError('not_found', `The file is gone: ${path}`);
    if (/\.hei[cf]$/i.test(path)) {
      throw new QuireError(
        'unsupported_format',
        'This HEIC picture cannot be decoded on this system: export it as JPEG (Photos: File > Export) to have it read.',
      );
    }
    throw new QuireError('unsupported', `This picture is damaged or not a picture Quire reads (${reason}).`);
  }
  if (!metadata.width || !metadata.height) {
    throw new QuireError('unsupported', 'This picture has no size: it is damaged.');
  }
  return {
    format: metadata.format ?? 'image',
    pages: Math.max(1, metadata.pages ?? 1),
    width: metadata.width,
    height: metadata.height,
  };
}

/**
 * Pictures hold text only as pixels: they are checked, then wait for text recognition, which reads
 * each frame as a page. Until an engine is available they are listed as waiting, never as indexed.
 */
export async function readImage(path: string): Promise<never> {
  const info = await inspectImage(path);
  const frames = info.pages === 1 ? 'one page' : `${info.pages} pages`;
  throw new QuireError(
    'awaiting_ocr',
    `Waiting for text recognition: this ${info.format.toUpperCase()} picture (${frames}) has no text Quire can search until its text is recognised.`,
    { pages: info.pages },
  );
}
