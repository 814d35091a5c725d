/**
 * `npm run bench -- page-open [--opens N] [--backlog N]`: time to a drawn page while OCR runs. The
 * document pool is kept busy with OCR of scanned pages (a backlog of batches always queued, as when a
 * folder of scans is being read); meanwhile a page of another PDF is drawn the way the viewer asks for
 * one. Each open is timed twice, taking turns: queued as background work (how the viewer's page
 * waited before) and as urgent work (ahead of the queue, as it does now). With `--viewer`, the
 * time to a drawn page in the browser UI instead, end to end (pageOpenViewer.ts).
 */
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

import { createDocumentPool } from '../../src/core/documents/pool/documentPool';
import { PageImageStore } from '../../src/core/documents/render/pageImageStore';
import { corpusDir, tempDir } from '../../test/helpers/shared';
import { numberOption, percentile, type BenchReport } from './report';

const SCAN = join(corpusDir, 'ocrmypdf', 'multipage.pdf');
const VIEWED = join(corpusDir, 'pdfjs', 'tracemonkey.pdf');

export async function run(args: string[]): Promise<BenchReport> {
  // End to end in the browser UI, through the real core and quire serve (pageOpenViewer.ts).
  if (args.includes('--viewer')) return (await import('./pageOpenViewer')).runViewer(args);
  const opens = numberOption(args, '--opens', 3);
  const backlog = numberOption(args, '--backlog', 4);
  const dir = await tempDir('quire-bench-page-open-');
  const pool = createDocumentPool({ size: 2, jobTimeoutMs: 600_000 });
  const store = new PageImageStore(join(dir.path, 'pages'));
  let stopped = false;
  let ocrBatches = 0;
  let ocrRound = 0;

  /** One reading of the scan's pages into a fresh OCR store, so nothing is skipped as already read. */
  const readScan = async () => {
    const round = ocrRound++;
    await pool.ocr(SCAN, {
      kind: 'pdf',
      pages: [1, 2, 3, 4],
      ocr: {
        storeRoot: join(dir.path, `ocr-${round}`),
        contentHash: round.toString(16).padStart(64, '0'),
        engine: 'tesseract',
        languages: ['eng'],
      },
      onPages: () => ocrBatches++,
    });
  };
  /** Keeps `backlog` OCR readings going until the bench ends. */
  const lanes = Array.from({ length: backlog }, async () => {
    while (!stopped) {
      await readScan().catch((error: unknown) => {
        if (!stopped) console.error('ocr failed', error);
      });
    }
  });

  const samples = { background: [] as number[], urgent: [] as number[] };
  try {
    // Let the backlog fill the workers before the first open.
    while (ocrBatches === 0 && pool.pending() < backlog) await new Promise((r) => setTimeout(r, 100));
    await new Promise((resolve) => setTimeout(resolve, 1000));
    for (let i = 0; i < opens; i++) {
      for (const mode of ['background', 'urgent'] as const) {
        const started = performance.now();
        await pool.render(
          VIEWED,
          // A fresh content hash each time: the store would otherwise reuse the page drawn before.
          {
            contentHash: `${mode === 'urgent' ? 'a' : 'b'}${i.toString(16)}`.padEnd(64, '0'),
            pages: [1 + (i % 10)],
            urgent: mode === 'urgent',
          },
          store,
        );
        const ms = performance.now() - started;
        samples[mode].push(ms);
        process.stderr.write(
          `\r${mode} open ${i + 1}/${opens}: ${Math.round(ms)} ms, queue ${pool.pending()}   `,
        );
      }
    }
    process.stderr.write('\n');
  } finally {
    stopped = true;
    await pool.dispose();
    await Promise.allSettled(lanes);
    await dir.cleanup();
  }

  const summary = (mode: 'background' | 'urgent') => {
    const sorted = [...samples[mode]].sort((a, b) => a - b);
    return { p50: percentile(sorted, 50), max: sorted.at(-1) ?? NaN };
  };
  const before = summary('background');
  const after = summary('urgent');
  return {
    name: 'page-open',
    rows: [
      { page: 'queued behind OCR (before)', opens, p50Ms: before.p50, maxMs: before.max, ratio: 1 },
      {
        page: 'urgent, ahead of OCR (after)',
        opens,
        p50Ms: after.p50,
        maxMs: after.max,
        ratio: after.p50 / before.p50,
      },
    ],
    details: { backlog, ocrBatches, samples, scan: SCAN, viewed: VIEWED },
  };
}
