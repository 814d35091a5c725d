import type { ParsedDocument } from '../documents/types';

/*
 * What reading a document left out, said in its error (the line the CLI prints as a warning and the
 * app shows beside the file): pages past the per-document limit, and pages that repeat an earlier one.
 * The note is one sentence starting "Indexed ", so a later problem with page images is added after it.
 */

const NOTE = /^Indexed [^.]*\./;

const count = (value: number) => value.toLocaleString('en-US');

/** The note for a document as read; null when every page of the file was read once. */
export function readingNote(parsed: Pick<ParsedDocument, 'pages' | 'pagesInFile'>): string | null {
  const read = parsed.pages.length;
  const repeats = parsed.pages.filter((page) => page.textSource?.repeatOf !== undefined).length;
  if (parsed.pagesInFile === undefined && repeats === 0) return null;
  const indexed =
    parsed.pagesInFile === undefined
      ? `Indexed ${count(read)} pages`
      : `Indexed the first ${count(read)} of ${count(parsed.pagesInFile)} pages ` +
        `(the limit per document; --max-pages raises it)`;
  const repeated =
    repeats === 0 ? '' : `; ${count(repeats)} of them repeat an earlier page and are searchable on it`;
  return `${indexed}${repeated}.`;
}

const CUT_SHORT = /^Indexed the first ([\d,]+) of ([\d,]+) pages/;

/** Whether a note says its document was read only up to the page limit. */
export function wasCutShort(note: string | null | undefined): boolean {
  return note?.match(CUT_SHORT) != null;
}

/**
 * Whether a document whose note says it was read only up to a limit would be read further under
 * `limit` (a raised `--max-pages`): its pages past the old limit are then read on the next run.
 */
export function readsFurtherUnder(note: string | null | undefined, limit: number): boolean {
  const cut = note?.match(CUT_SHORT);
  if (!cut) return false;
  const read = Number(cut[1]!.replaceAll(',', ''));
  const inFile = Number(cut[2]!.replaceAll(',', ''));
  return limit > read && inFile > read;
}

/** A document's error after drawing its page images: its reading note, if any, then the problem. */
export function withReadingNote(previous: string | null, problem: string | null): string | null {
  const note = previous?.match(NOTE)?.[0] ?? null;
  return [note, problem].filter((part) => part).join(' ') || null;
}
