import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createDocumentPool } from '../../src/core/documents/pool/documentPool';
import { QuireError } from '../../src/shared/errors';
import { PageImageStore } from '../../src/core/documents/render/pageImageStore';
import { corpusDir, tempDir, withoutCorpus } from '../helpers/shared';

const noCorpus = withoutCorpus('the document pool on corpus PDFs');

const longPdf = join(corpusDir, 'financebench', '3M_2022_10K.pdf');
const shortPdf = join(corpusDir, 'pdfjs', 'tracemonkey.pdf');

describe.skipIf(noCorpus)('document pool', () => {
  it('stops a job that overruns its time limit and keeps serving jobs with a fresh worker', async () => {
    const pool = createDocumentPool({ size: 1, jobTimeoutMs: 50_000 });
    try {
      const overrun = pool.parse(longPdf, { kind: 'pdf', timeoutMs: 300 });
      await expect(overrun).rejects.toBeInstanceOf(QuireError);
      await expect(overrun).rejects.toMatchObject({
        code: 'timeout',
        message: expect.stringContaining('300 ms'),
      });
      const parsed = await pool.parse(shortPdf, { kind: 'pdf' });
      expect(parsed.pages).toHaveLength(14);
      expect(pool.pending()).toBe(0);
      expect(pool.workersStarted()).toBe(2);
    } finally {
      await pool.dispose();
    }
  });

  it('cancels a running job and a queued one through their AbortSignals', async () => {
    const pool = createDocumentPool({ size: 1 });
    try {
      const running = new AbortController();
      const queued = new AbortController();
      const first = pool.parse(longPdf, { kind: 'pdf', signal: running.signal });
      const second = pool.parse(longPdf, { kind: 'pdf', signal: queued.signal });
      const third = pool.parse(shortPdf, { kind: 'pdf' });
      expect(pool.pending()).toBe(3);
      queued.abort();
      await expect(second).rejects.toMatchObject({ code: 'cancelled' });
      running.abort();
      await expect(first).rejects.toMatchObject({ code: 'cancelled' });
      expect((await third).pages).toHaveLength(14);
      const already = AbortSignal.abort();
      await expect(pool.parse(shortPdf, { kind: 'pdf', signal: already })).rejects.toMatchObject({
        code: 'cancelled',
      });
    } finally {
      await pool.dispose();
    }
  });

  it('replaces a worker after its quota of jobs', async () => {
    const pool = createDocumentPool({ size: 1, recycleAfterJobs: 2 });
    try {
      const small = join(corpusDir, 'pdfjs', 'ArabicCIDTrueType.pdf');
      for (let i = 0; i < 5; i++) expect((await pool.parse(small, { kind: 'pdf' })).pages).toHaveLength(1);
      expect(pool.workersStarted()).toBe(3);
    } finally {
      await pool.dispose();
    }
  });

  it('runs an urgent job (a page someone opened) at once, even when every worker is busy', async () => {
    const pool = createDocumentPool({ size: 1 });
    const dir = await tempDir('quire-pool-urgent-');
    try {
      const finished: string[] = [];
      const store = new PageImageStore(dir.path);
      // One long job first: 16 pages drawn in one batch (a long PDF's text would be read in ranges,
      // which let other jobs through between them).
      const sixteen = Array.from({ length: 16 }, (_, i) => i + 1);
      const background = [
        pool.render(longPdf, { contentHash: 'c1'.repeat(32), pages: sixteen }, store),
        pool.parse(shortPdf, { kind: 'pdf' }),
        pool.parse(shortPdf, { kind: 'pdf' }),
      ].map((job, n) => job.then(() => finished.push(`background ${n + 1}`)));
      const urgent = pool
        .render(shortPdf, { contentHash: 'c3'.repeat(32), pages: [1], urgent: true }, store)
        .then(() => finished.push('urgent'));
      await Promise.all([...background, urgent]);
      // The long background job holds the only worker; the spare one draws the page meanwhile.
      expect(finished).toEqual(['urgent', 'background 1', 'background 2', 'background 3']);
      expect(pool.workersStarted()).toBe(2);
    } finally {
      await pool.dispose();
      await dir.cleanup();
    }
    // Sixteen pages drawn on a busy 2-core machine: generous, not a measure.
  }, 180_000);

  it('reads text ahead of queued work that follows it (drawing, layer checks), in arrival order', async () => {
    const pool = createDocumentPool({ size: 1 });
    const dir = await tempDir('quire-pool-order-');
    try {
      const finished: string[] = [];
      const store = new PageImageStore(dir.path);
      const done = (name: string) => () => finished.push(name);
      // The first job takes the only worker; the others queue behind it in this order.
      const jobs = [
        pool.parse(shortPdf, { kind: 'pdf' }).then(done('text 1')),
        pool.render(shortPdf, { contentHash: 'c4'.repeat(32), pages: [1, 2] }, store).then(done('drawing')),
        pool.checkLayers(shortPdf, { pages: [1, 2] }).then(done('layer check')),
        pool.parse(shortPdf, { kind: 'pdf', textOnly: true }).then(done('text 2')),
        pool.parse(shortPdf, { kind: 'pdf' }).then(done('text 3')),
      ];
      await Promise.all(jobs);
      expect(finished).toEqual(['text 1', 'text 2', 'text 3', 'drawing', 'layer check']);
    } finally {
      await pool.dispose();
      await dir.cleanup();
    }
  }, 180_000);

  it('runs jobs on several workers at once and fails what is left when closed', async () => {
    const pool = createDocumentPool({ size: 2 });
    expect(pool.size).toBe(2);
    const outcomes = [1, 2, 3].map(() =>
      pool.parse(longPdf, { kind: 'pdf' }).then(
        () => 'parsed',
        (error: unknown) => (error instanceof QuireError ? error.code : String(error)),
      ),
    );
    expect(pool.pending()).toBe(3);
    await pool.dispose();
    expect(await Promise.all(outcomes)).toEqual(['cancelled', 'cancelled', 'cancelled']);
    await expect(pool.parse(shortPdf, { kind: 'pdf' })).rejects.toMatchObject({ code: 'cancelled' });
  });

  it('a worker that runs out of memory fails its job with a QuireError, not a crash', async () => {
    // PDFium reads text outside the JavaScript heap: a heap this small still runs out on a long file.
    const pool = createDocumentPool({ size: 1, workerHeapMb: 16 });
    try {
      const outcome = await pool.parse(longPdf, { kind: 'pdf' }).then(
        () => 'parsed',
        (error: unknown) => (error instanceof QuireError ? error.code : String(error)),
      );
      expect(outcome).toBe('unsupported');
    } finally {
      await pool.dispose();
    }
  });
});
