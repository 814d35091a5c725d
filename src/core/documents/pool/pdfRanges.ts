import { QuireError } from '../../../shared/errors';
import { assemblePdf, repeatedPage, type PdfPagesRead } from '../pdf/parsePdf';
import type { ChunkingOptions } from '../layout/chunker';
import type { ParsedDocument } from '../types';
import { inBatches, range } from './batches';
import type { DocumentJob, OcrSource } from './protocol';

/**
 * The shortest range of a long PDF read per job (see rangeLength). Each job opens the file again, so a
 * range must be long enough for that to be small beside reading its pages.
 */
export const PDF_RANGE_PAGES = 48;

/**
 * Ranges per worker a very long file is cut into, and the longest a range may be. Each range opens the
 * file again (about 90 ms for a 15 MB file of 2,400 pages), so past a few hundred pages fewer, longer
 * ranges read faster; four per worker still leave other files' jobs room to run between them.
 */
const RANGES_PER_LANE = 4;
const MAX_RANGE_PAGES = 240;

/** Pages per range for a file of `pageCount` pages read by `lanes` workers. */
export function rangeLength(pageCount: number, lanes: number): number {
  const even = Math.ceil(pageCount / (Math.max(1, lanes) * RANGES_PER_LANE));
  return Math.min(MAX_RANGE_PAGES, Math.max(PDF_RANGE_PAGES, even));
}

/** A PDF longer than this is read in ranges spread over the workers rather than by one worker. */
export const RANGES_FROM = PDF_RANGE_PAGES * 1.5;

export function splitsIntoRanges(pageCount: number | undefined): pageCount is number {
  return pageCount !== undefined && pageCount > RANGES_FROM;
}

export interface PdfRangeJob {
  path: string;
  /** The page count the file was listed with; a file that no longer has it is read again. */
  pageCount: number;
  /** Read no page past this one (the per-document page limit). */
  maxPages?: number;
  /** Pages known to repeat an earlier page (the same page object), each with it: not read again. */
  repeats?: ReadonlyMap<number, number>;
  password?: string;
  ocr?: OcrSource;
  textOnly?: boolean;
  chunking?: ChunkingOptions;
}

/**
 * Reads a long PDF in page ranges, at most `lanes` at once, and lays the pages out in order once all
 * are in, exactly as one worker reading the whole file would (headings need the whole document's body
 * size). Nothing is returned until every range is read, so a failure or a cancel leaves no part of the
 * file behind; the failing range is named in the error.
 */
export async function parsePdfInRanges(
  job: PdfRangeJob,
  lanes: number,
  submit: (job: DocumentJob, signal: AbortSignal) => Promise<PdfPagesRead>,
  signal?: AbortSignal,
): Promise<ParsedDocument> {
  // The first range to fail stops the others: the file is failed whole, so their work would be lost.
  const failed = new AbortController();
  const stop = signal ? AbortSignal.any([signal, failed.signal]) : failed.signal;
  const limit = job.maxPages ?? Infinity;
  const toRead = Math.min(job.pageCount, limit);
  const repeats = job.repeats ?? new Map<number, number>();
  const own = range(toRead).filter((page) => !repeats.has(page));
  const length = rangeLength(own.length, lanes);
  const parts = await inBatches(own, length, lanes, async (pages) => {
    const first = pages[0]!;
    const last = pages[pages.length - 1]!;
    const read = await submit(
      {
        type: 'readPdfRange',
        path: job.path,
        pages,
        withTitle: first === 1,
        ...(job.password === undefined ? {} : { password: job.password }),
        ...(job.ocr ? { ocr: job.ocr } : {}),
        ...(job.textOnly ? { textOnly: true } : {}),
      },
      stop,
    ).catch((error: unknown) => {
      failed.abort();
      throw inRange(error, first, last);
    });
    // Compared within the page limit: a file indexed to the limit is listed with that many pages.
    if (Math.min(read.pageCount, limit) !== Math.min(job.pageCount, limit)) {
      failed.abort();
      throw new QuireError(
        'internal',
        `The PDF changed while it was read (${read.pageCount} pages, not ${job.pageCount}).`,
      );
    }
    return [read];
  });
  if (repeats.size === 0) return assemblePdf(parts, job.chunking);
  // The repeats go back between the pages read, in page order, as the layout expects.
  const pages = [
    ...parts.flatMap((part) => part.pages),
    ...[...repeats].map(([page, first]) => repeatedPage(page, first)),
  ];
  pages.sort((a, b) => a.page - b.page);
  const { metadataTitle = null, pageCount = job.pageCount } = parts[0] ?? {};
  return assemblePdf([{ pages, metadataTitle, pageCount }], job.chunking);
}

/** The range's error, saying which pages it was reading; cancels pass through as they are. */
function inRange(error: unknown, first: number, last: number): unknown {
  if (!(error instanceof QuireError) || error.code === 'cancelled') return error;
  return new QuireError(error.code, `Reading pages ${first}-${last}: ${error.message}`, error.details);
}
