import type { PageImageRef, ParsedDocument } from '../../documents/types';
import { QuireError } from '../../../shared/errors';
import { chunkId, pageId } from '../schema';
import { chunkSearchText, fileNameWords } from '../searchText';

/*
 * Turns a reader's output into rows of the `chunks` and `pages` tables, rejecting values the
 * index cannot hold (pages out of range, offsets that are not integers) with one clear error.
 */

export const CONTENT_HASH = /^[0-9a-f]{16,128}$/;

export function assertContentHash(contentHash: unknown): asserts contentHash is string {
  if (typeof contentHash !== 'string' || !CONTENT_HASH.test(contentHash)) {
    throw new QuireError(
      'invalid_input',
      'A content hash must be a lower-case hex digest (sha256 of the file).',
    );
  }
}

function invalid(message: string): never {
  throw new QuireError('invalid_input', `Cannot index this document: ${message}`);
}

const isCount = (n: unknown): n is number => Number.isInteger(n) && (n as number) >= 0;

export function chunkRows(
  contentHash: string,
  parsed: ParsedDocument,
  fileName: string | null,
): Array<Record<string, unknown>> {
  const pageCount = parsed.pages.length;
  const seen = new Set<number>();
  return parsed.chunks.map((chunk) => {
    if (!isCount(chunk.index) || seen.has(chunk.index)) invalid(`chunk index ${chunk.index} is not unique.`);
    seen.add(chunk.index);
    if (!Number.isInteger(chunk.page) || chunk.page < 1 || chunk.page > pageCount) {
      invalid(`chunk ${chunk.index} is on page ${chunk.page}, outside 1..${pageCount}.`);
    }
    if (typeof chunk.text !== 'string') invalid(`chunk ${chunk.index} has no text.`);
    if (!isCount(chunk.charStart) || !isCount(chunk.charEnd))
      invalid(`chunk ${chunk.index} has bad offsets.`);
    return {
      id: chunkId(contentHash, chunk.index),
      content_hash: contentHash,
      chunk_index: chunk.index,
      page: chunk.page,
      text: chunk.text,
      heading: chunk.heading ?? null,
      char_start: chunk.charStart,
      char_end: chunk.charEnd,
      boxes: JSON.stringify(chunk.boxes ?? []),
      search_text: chunkSearchText({
        text: chunk.text,
        heading: chunk.heading ?? null,
        title: parsed.title,
        fileName: fileName === null ? null : fileNameWords(fileName),
      }),
    };
  });
}

export function pageRows(
  contentHash: string,
  parsed: ParsedDocument,
  images: PageImageRef[],
): Array<Record<string, unknown>> {
  const imageOf = new Map(images.map((image) => [image.page, image]));
  return parsed.pages.map((page, position) => {
    if (page.page !== position + 1) invalid(`pages must be numbered 1..n in order (found ${page.page}).`);
    if (!(page.width > 0) || !(page.height > 0)) invalid(`page ${page.page} has no size.`);
    return {
      id: pageId(contentHash, page.page),
      content_hash: contentHash,
      page: page.page,
      width: page.width,
      height: page.height,
      needs_ocr: Boolean(page.needsOcr),
      ...imageColumns(imageOf.get(page.page)),
      text: typeof page.text === 'string' ? page.text : '',
      text_source: page.textSource ? JSON.stringify(page.textSource) : null,
    };
  });
}

/** The `pages` columns that point at a page's stored images (all null when it has none yet). */
export function imageColumns(image: PageImageRef | undefined): Record<string, unknown> {
  return {
    image_full: image?.full ?? null,
    image_thumbnail: image?.thumbnail ?? null,
    image_width: image ? Math.round(image.width) : null,
    image_height: image ? Math.round(image.height) : null,
  };
}
