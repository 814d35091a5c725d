/**
 * `npm run bench -- huge-file [--pages N] [--one-worker]`: corpus PDFs joined with `pdfunite` into one
 * file of about N pages (2,400 by default), indexed by the app's own queue: seconds until its text is
 * searchable against `pdftotext` on the same file in the same run, and the highest resident memory
 * (the pool's workers are threads of this process, so its RSS holds them). `--one-worker` also reads it
 * the old way, every page through one worker, for the ratio.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { createCore } from '../../src/core/createCore';
import { createDocumentPool } from '../../src/core/documents/pool/documentPool';
import { corpusDir, tempDir } from '../../test/helpers/shared';
import { option, readablePdfs, type PagedRow } from './extract';
import type { BenchReport } from './report';
import { warmWorkers } from './warmWorkers';

const run$ = promisify(execFile);

/** Whether `pdfunite` can join the file: it refuses encrypted ones. */
async function joinable(path: string): Promise<boolean> {
  const { stdout } = await run$('pdfinfo', [path]).catch(() => ({ stdout: 'Encrypted: yes' }));
  return /^Encrypted:\s+no/m.test(stdout);
}

/** Corpus PDFs, largest first, until about `pages` pages (files repeat when the corpus is short). */
async function filesFor(pages: number): Promise<PagedRow[]> {
  const rows: PagedRow[] = [];
  const candidates = readablePdfs().sort(
    (a, b) => b.pages - a.pages || a.localPath.localeCompare(b.localPath),
  );
  let total = 0;
  for (const row of candidates) {
    if (total >= pages) break;
    if (!(await joinable(join(corpusDir, row.localPath)))) continue;
    rows.push(row);
    total += row.pages;
  }
  const picked = [...rows];
  for (let at = 0; total < pages && rows.length > 0; at = (at + 1) % rows.length) {
    picked.push(rows[at]!);
    total += rows[at]!.pages;
  }
  return picked;
}

function settled(documents: ReadonlyArray<{ state: string }>): boolean {
  return documents.length === 1 && !['listed', 'queued', 'indexing'].includes(documents[0]!.state);
}

/** Highest RSS sampled every 50 ms while `work` runs, in bytes. */
async function peakWhile<T>(work: () => Promise<T>): Promise<{ result: T; peakRss: number }> {
  let peakRss = process.memoryUsage.rss();
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage.rss())), 50);
  try {
    return { result: await work(), peakRss };
  } finally {
    clearInterval(sampler);
  }
}

export async function run(args: string[]): Promise<BenchReport> {
  const wanted = option(args, '--pages', 2400);
  const folder = await tempDir('quire-bench-huge-folder-');
  const data = await tempDir('quire-bench-huge-data-');
  const parts = await filesFor(wanted);
  const joined = join(folder.path, 'joined.pdf');
  await run$('pdfunite', [...parts.map((row) => join(corpusDir, row.localPath)), joined], {
    maxBuffer: 64 * 2 ** 20,
  });
  try {
    let started = performance.now();
    await run$('pdftotext', [joined, join(data.path, 'joined.txt')], { maxBuffer: 64 * 2 ** 20 });
    const pdftotextSeconds = (performance.now() - started) / 1000;

    const core = createCore({ dataDir: data.path, watch: false, findModels: false, renderImages: false });
    let pages = 0;
    let warmFolder = '';
    const cleanups: Array<() => Promise<void>> = [];
    const huge = () =>
      core.library.snapshot().documents.filter((d) => warmFolder === '' || !d.path.startsWith(warmFolder));
    let quireSeconds = 0;
    let state = '';
    const { peakRss } = await peakWhile(async () => {
      try {
        await core.start();
        const warm = await warmWorkers(core);
        warmFolder = warm.folder;
        cleanups.push(warm.cleanup);
        started = performance.now();
        await core.library.addFolder(folder.path);
        // Searchable once its row says indexed; OCR and the layer check that follow are not waited for.
        while (!settled(huge())) await sleep(50);
        quireSeconds = (performance.now() - started) / 1000;
        const doc = huge()[0];
        pages = doc?.pages ?? 0;
        state = doc?.state ?? 'missing';
      } finally {
        await core.dispose();
        for (const cleanup of cleanups) await cleanup();
      }
    });

    const rows: BenchReport['rows'] = [
      { reader: 'pdftotext', pages, seconds: pdftotextSeconds, ratio: 1, peakRssMb: null },
      {
        reader: `quire (${state})`,
        pages,
        seconds: quireSeconds,
        ratio: quireSeconds / pdftotextSeconds,
        peakRssMb: Math.round(peakRss / 2 ** 20),
      },
    ];
    if (args.includes('--one-worker')) {
      const pool = createDocumentPool();
      try {
        const single = await peakWhile(async () => {
          const at = performance.now();
          await pool.parse(joined, { kind: 'pdf', textOnly: true });
          return (performance.now() - at) / 1000;
        });
        rows.push({
          reader: 'one worker (parse only)',
          pages,
          seconds: single.result,
          ratio: single.result / pdftotextSeconds,
          peakRssMb: Math.round(single.peakRss / 2 ** 20),
        });
      } finally {
        await pool.dispose();
      }
    }
    return {
      name: 'huge-file',
      rows,
      targets: [
        {
          what: 'searchable (text) against pdftotext',
          target: 'within 3x',
          measured: `${(quireSeconds / pdftotextSeconds).toFixed(2)}x`,
          met: state === 'indexed' && quireSeconds <= 3 * pdftotextSeconds,
        },
      ],
      details: { files: parts.map((row) => row.localPath), peakRssBytes: peakRss },
    };
  } finally {
    await folder.cleanup();
    await data.cleanup();
  }
}
