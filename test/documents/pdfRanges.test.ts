import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { parsePdf } from '../../src/core/documents/pdf/parsePdf';
import { createDocumentPool } from '../../src/core/documents/pool/documentPool';
import { PDF_RANGE_PAGES } from '../../src/core/documents/pool/pdfRanges';
import { QuireError } from '../../src/shared/errors';
import { corpusDir, withoutCorpus } from '../helpers/shared';

const noCorpus = withoutCorpus('long corpus PDFs read in page ranges');

// 99 pages: three ranges, the last one short.
const longPdf = join(corpusDir, 'financebench', 'ADOBE_2022_10K.pdf');
const longPages = 99;
const shortPdf = join(corpusDir, 'pdfjs', 'tracemonkey.pdf');

function failureOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => new Error('it was read'),
    (error: unknown) => error,
  );
}

describe.skipIf(noCorpus)('a long PDF read in page ranges over the workers', () => {
  it('gives the same pages, chunks and title as one worker reading it whole', async () => {
    expect(longPages).toBeGreaterThan(2 * PDF_RANGE_PAGES);
    // What a single worker runs for the whole file.
    const whole = await parsePdf(longPdf);
    expect(whole.pages).toHaveLength(longPages);
    const pool = createDocumentPool({ size: 2 });
    try {
      // Counted when it was listed: the ranges start at once.
      const counted = await pool.parse(longPdf, { kind: 'pdf', pageCount: longPages });
      expect(pool.workersStarted()).toBe(2);
      expect(counted.pages.map((page) => page.page)).toEqual(whole.pages.map((page) => page.page));
      expect(counted).toEqual(whole);
      // Not counted yet: a worker finds it long, and then its ranges are spread the same way.
      expect(await pool.parse(longPdf, { kind: 'pdf' })).toEqual(whole);
      // A short file is read whole by one worker either way.
      expect((await pool.parse(shortPdf, { kind: 'pdf' })).pages).toHaveLength(14);
    } finally {
      await pool.dispose();
    }
  }, 240_000);

  it('stops every range when cancelled mid-file, and the pool keeps serving', async () => {
    const pool = createDocumentPool({ size: 2 });
    try {
      const controller = new AbortController();
      const reading = failureOf(
        pool.parse(longPdf, { kind: 'pdf', pageCount: longPages, signal: controller.signal }),
      );
      while (pool.pending() < 2) await sleep(5);
      await sleep(300);
      controller.abort();
      const error = await Promise.race([reading, sleep(20_000, 'still reading')]);
      expect(error).toBeInstanceOf(QuireError);
      expect(error).toMatchObject({ code: 'cancelled' });
      expect(pool.pending()).toBe(0);
      expect((await pool.parse(shortPdf, { kind: 'pdf' })).pages).toHaveLength(14);
    } finally {
      await pool.dispose();
    }
  }, 120_000);

  it('a worker that dies in a range fails the file with an error naming the pages, and nothing is returned', async () => {
    // PDFium reads text outside the JavaScript heap: a heap this small still runs out within a range.
    const pool = createDocumentPool({ size: 2, workerHeapMb: 16 });
    try {
      const file = join(corpusDir, 'financebench', '3M_2022_10K.pdf');
      const error = await failureOf(pool.parse(file, { kind: 'pdf', pageCount: 252 }));
      expect(error).toBeInstanceOf(QuireError);
      expect(error).toMatchObject({
        code: 'unsupported',
        message: expect.stringMatching(/^Reading pages \d+-\d+: This document needs more memory/),
      });
      // The other ranges stopped too; nothing is left running for the file.
      expect(pool.pending()).toBe(0);
    } finally {
      await pool.dispose();
    }
  }, 180_000);
});
