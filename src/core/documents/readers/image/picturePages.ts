import { QuireError } from '../../../../shared/errors';
import type { OcrEngine } from '../../ocr/types';
import type { OcrStore } from '../../ocr/ocrStore';
import {
  MAX_OCR_LONG_EDGE,
  recognizePages,
  type OcrJobOptions,
  type OcrPageOutcome,
} from '../../ocr/recognizePdfPages';
import type { PageImageStore } from '../../render/pageImageStore';
import { DEFAULT_LONG_EDGE, THUMBNAIL_LONG_EDGE } from '../../render/raster';
import type { PageImageRef } from '../../types';
import type { DrawOptions } from '../formatReader';
import { drawFrame, inspectPicture, type PictureFrame, type PictureInfo } from './pictureFrames';

// Small pictures (a screenshot, a 72-dpi page) are enlarged for OCR up to this long edge, at most
// 4x: Tesseract reads letters best at about 20-30 pixels tall.
const OCR_SMALL_PICTURE_LONG_EDGE = 2400;
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

/** Reads a picture's frames with OCR, at their own resolution (small ones enlarged). */
export function recognizePicturePages(
  path: string,
  options: OcrJobOptions,
  store: OcrStore,
  engine: () => Promise<OcrEngine>,
): Promise<OcrPageOutcome[]> {
  const open = async () => {
    const picture = await inspectPicture(path);
    return {
      pageSize: async (page: number) => {
        const frame = frameOf(picture, page);
        return { width: frame.widthPt, height: frame.heightPt };
      },
      draw: (page: number) => drawFrame(path, page, ocrLongEdge(frameOf(picture, page))),
      close: async () => undefined,
    };
  };
  return recognizePages(open, options, store, engine);
}

function ocrLongEdge(frame: PictureFrame): number {
  const native = Math.max(frame.widthPx, frame.heightPx);
  const enlarged = Math.min(native * OCR_MAX_ENLARGEMENT, OCR_SMALL_PICTURE_LONG_EDGE);
  return Math.min(MAX_OCR_LONG_EDGE, Math.max(native, enlarged));
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
