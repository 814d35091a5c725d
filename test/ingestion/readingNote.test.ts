import { describe, expect, it } from 'vitest';
import { withReadingNote } from '../../src/core/ingestion/readingNote';

const NOTE = 'Indexed the first 10 of 20 pages (the limit per document; --max-pages raises it).';
const PROBLEM = '2 of 10 page images could not be drawn: timeout.';

describe("a document's error after its page images are drawn", () => {
  it('keeps what reading left out beside what drawing left out', () => {
    expect(withReadingNote(NOTE, PROBLEM)).toBe(`${NOTE} ${PROBLEM}`);
    expect(withReadingNote(`${NOTE} ${PROBLEM}`, null)).toBe(NOTE);
    expect(withReadingNote(`${NOTE} ${PROBLEM}`, PROBLEM)).toBe(`${NOTE} ${PROBLEM}`);
  });

  it('is the drawing problem alone, or nothing, for a document read whole', () => {
    expect(withReadingNote(null, PROBLEM)).toBe(PROBLEM);
    expect(withReadingNote(PROBLEM, null)).toBeNull();
    expect(withReadingNote(null, null)).toBeNull();
  });
});
