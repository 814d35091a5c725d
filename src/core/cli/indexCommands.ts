import { resolve } from 'node:path';
import type { DocumentInfo, IndexProgress } from '../../shared/domain/library';
import { SearchMode } from '../../shared/domain/search';
import { QuireError } from '../../shared/errors';
import { createCore } from '../createCore';
import { printJson } from './output';

function progressLine(progress: IndexProgress): string {
  const width = 28;
  const share = progress.pagesTotal > 0 ? progress.pagesDone / progress.pagesTotal : 0;
  const filled = Math.round(share * width);
  const eta = progress.etaSeconds === null ? '' : ` ETA ${Math.ceil(progress.etaSeconds)} s`;
  return (
    `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${progress.filesDone}/${progress.filesTotal} files, ` +
    `${progress.pagesDone}/${progress.pagesTotal} pages, ${progress.pagesPerSecond.toFixed(1)} pages/s${eta}` +
    (progress.pagesToRecognize > 0 ? `, ${progress.pagesToRecognize} pages to recognise` : '') +
    (progress.pagesToDraw > 0 ? `, ${progress.pagesToDraw} pages to draw` : '')
  );
}

/** `quire index <folder>`: adds the folder if needed and indexes the library to completion. */
export async function indexCommand(
  folder: string | undefined,
  options: { dataDir: string; json: boolean; images: boolean; ocr: boolean },
): Promise<void> {
  if (!folder) throw new QuireError('invalid_input', 'Usage: quire index <folder>');
  const started = Date.now();
  const core = createCore({
    dataDir: options.dataDir,
    renderImages: options.images,
    findModels: false,
    ...(options.ocr ? {} : { ocr: false }),
  });
  await core.start();
  try {
    const path = resolve(folder);
    if (!core.library.snapshot().roots.some((root) => root.path === path)) {
      await core.library.addFolder(path);
    }
    const live = process.stderr.isTTY && !options.json;
    const off = core.ingestion.events.on('progress', (progress) => {
      if (live) process.stderr.write(`\r${progressLine(progress)}\x1b[K`);
    });
    // The scan feeds the queue; wait for both to settle.
    do {
      await core.library.whenIdle();
      await core.ingestion.whenIdle();
    } while (core.library.snapshot().scanning);
    off();
    if (live) process.stderr.write('\n');
    const documents = core.library.snapshot().documents;
    const stats = await core.index.maintenance.stats();
    const states: Record<string, number> = {};
    for (const doc of documents) states[doc.state] = (states[doc.state] ?? 0) + 1;
    const indexed = documents.filter((d) => d.state === 'indexed');
    const ocrTotal = (count: (ocr: NonNullable<DocumentInfo['ocr']>) => number) =>
      indexed.reduce((sum, d) => sum + (d.ocr ? count(d.ocr) : 0), 0);
    const summary = {
      files: documents.length,
      pages: indexed.reduce((sum, d) => sum + (d.pages ?? 0), 0),
      chunks: stats.chunks,
      // Scanned pages: read by OCR, unreadable, and still waiting (OCR off, or stopped midway).
      ocrPages: ocrTotal((ocr) => ocr.pagesRead),
      ocrUnreadablePages: ocrTotal((ocr) => ocr.pagesUnreadable),
      ocrWaitingPages: ocrTotal((ocr) => ocr.pagesWaiting),
      ocr: core.ocrSettings.current.enabled ? core.ocrSettings.current : 'off',
      seconds: (Date.now() - started) / 1000,
      states,
      failures: documents
        .filter((d) => d.state !== 'indexed')
        .map((d) => ({ path: d.path, state: d.state, reason: d.error })),
      // Indexed, with something missing: page images that could not be drawn.
      warnings: documents
        .filter((d) => d.state === 'indexed' && d.error !== null)
        .map((d) => ({ path: d.path, reason: d.error })),
    };
    if (options.json) {
      printJson(summary);
      return;
    }
    console.log(
      `Indexed ${states.indexed ?? 0} of ${summary.files} files: ${summary.pages} pages, ${summary.chunks} chunks in ${summary.seconds.toFixed(1)} s.`,
    );
    if (summary.ocrPages + summary.ocrUnreadablePages + summary.ocrWaitingPages > 0) {
      console.log(
        `  OCR: ${summary.ocrPages} scanned pages read, ${summary.ocrUnreadablePages} unreadable` +
          (summary.ocrWaitingPages > 0
            ? `, ${summary.ocrWaitingPages} not read (OCR is off or was stopped)`
            : ''),
      );
    }
    for (const failure of summary.failures)
      console.log(`  ${failure.state}: ${failure.path}: ${failure.reason ?? ''}`);
    for (const warning of summary.warnings) console.log(`  warning: ${warning.path}: ${warning.reason}`);
  } finally {
    await core.close();
  }
}

/** `quire search "<query>"`: hits as `{path, page, score, snippet}`, pages 1-based. */
export async function searchCommand(
  query: string | undefined,
  options: { dataDir: string; json: boolean; k: number; mode: string | undefined },
): Promise<void> {
  if (!query)
    throw new QuireError(
      'invalid_input',
      'Usage: quire search "<query>" [--k 10] [--mode bm25|dense|hybrid|pages]',
    );
  const mode = options.mode === undefined ? undefined : SearchMode.safeParse(options.mode);
  if (mode && !mode.success)
    throw new QuireError('invalid_input', `--mode must be bm25, dense, hybrid or pages.`);
  const core = createCore({ dataDir: options.dataDir, ingest: false, findModels: false });
  await core.start();
  try {
    const result = await core.dispatch('search.query', {
      query,
      k: options.k,
      ...(mode ? { mode: mode.data } : {}),
    });
    if (!result.ok) throw new QuireError(result.error.code, result.error.message);
    const hits = (result.value as Array<{ path: string; page: number; score: number; snippet: string }>).map(
      (hit) => ({
        path: hit.path,
        page: hit.page,
        score: hit.score,
        snippet: hit.snippet,
      }),
    );
    if (options.json) {
      printJson(hits);
      return;
    }
    if (hits.length === 0) console.log('No matches.');
    for (const hit of hits)
      console.log(`${hit.path} p.${hit.page}  (${hit.score.toFixed(3)})\n    ${hit.snippet}`);
  } finally {
    await core.close();
  }
}
