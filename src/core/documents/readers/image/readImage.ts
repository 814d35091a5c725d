import { bodyFontSize, groupBlocks } from '../../layout/blocks';
import { chunkPages, DEFAULT_CHUNKING, type ChunkingOptions } from '../../layout/chunker';
import { placePageText } from '../../layout/pageText';
import { ocrTextLines } from '../../ocr/ocrLines';
import { pageOcrOf, recognizedTextSource } from '../../ocr/ocrProvenance';
import type { OcrPageRecord } from '../../ocr/ocrStore';
import type { PageTextSource, ParsedDocument } from '../../types';
import { inspectPicture } from './pictureFrames';

export interface ReadImageOptions {
  /** OCR results by page (frame); a frame without one has no text yet. */
  ocr?: ReadonlyMap<number, OcrPageRecord>;
  chunking?: ChunkingOptions;
}

/**
 * A picture's frames as pages whose text is what OCR read on them: every frame needs OCR (its text
 * exists only as pixels), and until OCR has read it the page is there, with its image, but empty.
 * The words' boxes come from OCR, so citations highlight them on the picture itself.
 */
export async function readImage(path: string, options: ReadImageOptions = {}): Promise<ParsedDocument> {
  const { frames } = await inspectPicture(path);
  const read = frames.map((frame) => {
    const record = options.ocr?.get(frame.page) ?? null;
    return { frame, record, lines: record ? ocrTextLines(record, frame.widthPt, frame.heightPt) : [] };
  });
  const bodySize = bodyFontSize(read.flatMap(({ lines }) => lines));
  const placed = read.map(({ frame, lines }) =>
    placePageText({
      page: frame.page,
      width: frame.widthPt,
      height: frame.heightPt,
      blocks: groupBlocks(lines, bodySize),
    }),
  );
  return {
    kind: 'image',
    title: null,
    pages: placed.map(({ page, width, height, text }, at) => ({
      page,
      width,
      height,
      text,
      needsOcr: true,
      ocrReason: 'missing' as const,
      textSource: textSourceOf(read[at]!.record),
    })),
    chunks: chunkPages(placed, options.chunking ?? DEFAULT_CHUNKING),
  };
}

function textSourceOf(record: OcrPageRecord | null): PageTextSource {
  if (!record) return { method: 'none' };
  const ocr = pageOcrOf(
    record,
    'missing',
    record.lines.reduce((sum, line) => sum + line.length, 0),
  );
  return ocr.words > 0 ? recognizedTextSource(ocr) : { method: 'none', ocr };
}
