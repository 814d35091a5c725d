import { QuireError } from '../../../../shared/errors';
import type { OcrPageSource } from '../../ocr/types';
import type { PageImageStore } from '../../render/pageImageStore';
import { DEFAULT_LONG_EDGE, THUMBNAIL_LONG_EDGE } from '../../render/raster';
import type { PageImageRef } from '../../types';
import type { DrawOptions } from '../formatReader';
import { drawFrame, inspectPicture, type PictureFrame, type PictureInfo } from './pictureFrames';

const OCR_MAX_ENLARGEMENT = 4;

/** The frames of a picture as page images: the page a citation opens is the picture itself. */
export async function drawPicturePages(
  path: string,
  options: DrawOptions,
  store: PageImageStore,
): Promise<PageImageRef[]> {
  const picture = await inspectPicture(path);
  const longEdge = options.longEdge ?? DEFAULT_LONG_EDGE;
  const refs: PageImageRef[] = [];
  for (const page of options.pages ?? picture.frames.map((frame) => frame.page)) {
    options.signal?.throwIfAborted();
    frameOf(picture, page);
    const stored = await store.get(options.contentHash, page, longEdge);
    if (stored) {
      refs.push(stored);
      continue;
    }
    const full = await drawFrame(path, page, longEdge);
    const thumbnail = await drawFrame(path, page, Math.min(longEdge, THUMBNAIL_LONG_EDGE));
    refs.push(await store.put(options.contentHash, page, longEdge, { full, thumbnail }));
  }
  return refs;
}

/**
 * A picture's frames as OCR draws them. OCR asks for about 150 dpi of the page's size in points
 * (300 for small print); a small picture is enlarged at most 4x, as more pixels add nothing to read.
 */
export async function picturePagesForOcr(path: string): Promise<OcrPageSource> {
  const picture = await inspectPicture(path);
  return {
    hasPage: async (page) => picture.frames[page - 1] !== undefined,
    pageSize: async (page) => {
      const frame = frameOf(picture, page);
      return { width: frame.widthPt, height: frame.heightPt };
    },
    drawFull: async (page, longEdge) => {
      const frame = frameOf(picture, page);
      const native = Math.max(frame.widthPx, frame.heightPx);
      return drawFrame(path, page, Math.min(longEdge, native * OCR_MAX_ENLARGEMENT));
    },
    close: async () => undefined,
  };
}

function frameOf(picture: PictureInfo, page: number): PictureFrame {
  const frame = picture.frames[page - 1];
  if (!frame) {
    throw new QuireError(
      'invalid_input',
      `Page ${page} does not exist: the picture has ${picture.frames.length} pages.`,
    );
  }
  return frame;
}
