/**
 * `npm run bench -- queue [--limit N] [--text-only]`: a folder of N corpus PDFs (30 by default) indexed
 * by the app's own queue, with page images: seconds until every file's text is searchable, and until
 * every page is drawn (not with `--text-only`). Text goes first, so the first number is what a user
 * waits for before searching. `pdftotext` reads the same files first, as many at once as there are
 * cores, for the ratio.
 */
import { execFile } from 'node:child_process';
import { copyFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { basename, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { createCore } from '../../src/core/createCore';
import { corpusDir, tempDir } from '../../test/helpers/shared';
import { option, pickFiles, readablePdfs } from './extract';
import { peakRssBytes, type BenchReport } from './report';
import { warmWorkers } from './warmWorkers';

const run$ = promisify(execFile);

/** Seconds for `pdftotext` to read every file, as many at once as there are cores. */
async function pdftotextSeconds(paths: string[]): Promise<number> {
  const started = performance.now();
  let next = 0;
  const lane = async () => {
    while (next < paths.length) {
      await run$('pdftotext', [paths[next++]!, '-'], { maxBuffer: 256 * 2 ** 20 }).catch(() => undefined);
    }
  };
  await Promise.all(Array.from({ length: availableParallelism() }, lane));
  return (performance.now() - started) / 1000;
}

export async function run(args: string[]): Promise<BenchReport> {
  const files = pickFiles(readablePdfs(), option(args, '--limit', 30));
  const textOnly = args.includes('--text-only');
  const folder = await tempDir('quire-bench-queue-folder-');
  const data = await tempDir('quire-bench-queue-data-');
  for (const [i, row] of files.entries()) {
    await copyFile(join(corpusDir, row.localPath), join(folder.path, `${i}-${basename(row.localPath)}`));
  }
  const baseline = await pdftotextSeconds(files.map((row) => join(corpusDir, row.localPath)));
  const core = createCore({
    dataDir: data.path,
    watch: false,
    findModels: false,
    // Text only: OCR and images follow the text, so they are left out rather than cut short.
    ...(textOnly ? { renderImages: false, ocr: false } : {}),
  });
  let warm: Awaited<ReturnType<typeof warmWorkers>> | undefined;
  try {
    await core.start();
    warm = await warmWorkers(core);
    const warmFolder = warm.folder;
    const warmFiles = core.library.snapshot().documents.length;
    const started = performance.now();
    let searchableSeconds: number | null = null;
    const sampler = setInterval(() => {
      const documents = core.library.snapshot().documents.filter((d) => !d.path.startsWith(warmFolder));
      const settled = documents.every(
        (d) => d.state !== 'listed' && d.state !== 'queued' && d.state !== 'indexing',
      );
      if (searchableSeconds === null && documents.length === files.length && settled) {
        searchableSeconds = (performance.now() - started) / 1000;
      }
    }, 50);
    await core.library.addFolder(folder.path);
    while (textOnly && searchableSeconds === null) await sleep(50);
    if (!textOnly) {
      do {
        await core.library.whenIdle();
        await core.ingestion.whenIdle();
      } while (core.library.snapshot().scanning);
    }
    clearInterval(sampler);
    const drawnSeconds = (performance.now() - started) / 1000;
    const documents = core.library.snapshot().documents.filter((d) => !d.path.startsWith(warmFolder));
    const pages = documents.reduce((sum, d) => sum + (d.pages ?? 0), 0);
    const indexed = documents.filter((d) => d.state === 'indexed').length;
    const searchable = searchableSeconds ?? drawnSeconds;
    const rows: BenchReport['rows'] = [
      {
        stage: 'workers started (not timed below)',
        files: warmFiles,
        pages: null,
        seconds: warm.seconds,
        ratio: null,
      },
      { stage: 'pdftotext (same files)', files: files.length, pages, seconds: baseline, ratio: 1 },
      {
        stage: 'every file searchable (text)',
        files: indexed,
        pages,
        seconds: searchable,
        ratio: searchable / baseline,
      },
    ];
    if (!textOnly) {
      rows.push({
        stage: 'every page drawn (images)',
        files: indexed,
        pages,
        seconds: drawnSeconds,
        ratio: null,
      });
    }
    return {
      name: 'queue',
      rows,
      targets: [
        {
          what: 'pages searchable per second (text)',
          target: '>= 100',
          measured: (pages / searchable).toFixed(1),
          met: indexed === files.length && pages / searchable >= 100,
        },
      ],
      details: { peakRssBytes: peakRssBytes(), files: files.map((row) => row.localPath) },
    };
  } finally {
    await core.dispose();
    await warm?.cleanup();
    await folder.cleanup();
    await data.cleanup();
  }
}
