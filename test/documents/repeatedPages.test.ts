import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parsePdf } from '../../src/core/documents/pdf/parsePdf';
import { createDocumentPool } from '../../src/core/documents/pool/documentPool';
import { readingNote } from '../../src/core/ingestion/readingNote';
import { mostlyRepeats, repeatedPagesPdf } from '../helpers/repeatedPagesPdf';
import { tempDir } from '../helpers/shared';

describe('a page tree that lists the same page objects over and over', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let long: string;
  let short: string;

  beforeAll(async () => {
    dir = await tempDir('quire-repeated-pages-');
    long = join(dir.path, 'kids.pdf');
    short = join(dir.path, 'short.pdf');
    await writeFile(long, repeatedPagesPdf(mostlyRepeats(20_000)));
    await writeFile(short, repeatedPagesPdf(['A', 'B', 'A', 'B', 'A']));
  });

  afterAll(() => dir.cleanup());

  it('reads each page object once, and a long file only up to the page limit', async () => {
    const pool = createDocumentPool({ size: 2, maxPagesPerDocument: 3_000 });
    try {
      const parsed = await pool.parse(long, { kind: 'pdf' });
      expect(parsed.pages).toHaveLength(3_000);
      expect(parsed.pagesInFile).toBe(20_000);
      expect(parsed.pages[0]!.text).toContain('A page repeated');
      expect(parsed.pages[1]!.text).toContain('Another page, once');
      // The rest are page 1 again: searchable there once, sized like it, never sent to OCR.
      const repeats = parsed.pages.slice(2);
      expect(repeats.every((page) => page.textSource?.repeatOf === 1 && page.text === '')).toBe(true);
      expect(repeats.every((page) => !page.needsOcr && page.width === 612 && page.height === 792)).toBe(true);
      expect(parsed.chunks.map((chunk) => chunk.page)).toEqual([1, 2]);
      expect(readingNote(parsed)).toBe(
        'Indexed the first 3,000 of 20,000 pages (the limit per document; --max-pages raises it); ' +
          '2,998 of them repeat an earlier page and are searchable on it.',
      );
      // Counted when it was listed, or listed with the pages indexed (as OCR reads it again): the same.
      expect(await pool.parse(long, { kind: 'pdf', pageCount: 20_000 })).toEqual(parsed);
      expect(await pool.parse(long, { kind: 'pdf', pageCount: 3_000 })).toEqual(parsed);
    } finally {
      await pool.dispose();
    }
  }, 120_000);

  it('a short file read whole knows its repeats too, and has no limit to report', async () => {
    const parsed = await parsePdf(short);
    expect(parsed.pages.map((page) => page.textSource?.repeatOf ?? null)).toEqual([null, null, 1, 2, 1]);
    expect(parsed.pagesInFile).toBeUndefined();
    expect(parsed.chunks).toHaveLength(2);
    expect(readingNote(parsed)).toBe(
      'Indexed 5 pages; 3 of them repeat an earlier page and are searchable on it.',
    );
  });
});
