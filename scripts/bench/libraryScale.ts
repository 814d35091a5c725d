/**
 * `npm run bench -- library-scale [--files N] [--images] [--keep DIR | --reuse DIR]`: a library of N
 * generated documents
 * (10,000 by default; see libraryScaleCorpus.ts) added as one folder and indexed by the app's own
 * queue (text only unless --images). Reports seconds to list the folder, seconds until every file is
 * searchable, peak resident memory over Quire and its child processes, `library.list` p95 and
 * payload size, and scoped against unscoped search p95 at that size; then, unless --no-browser, the
 * library list in real Chromium against `quire serve` (libraryScaleBrowser.ts). `--keep DIR` leaves
 * the folder and data folder in DIR; `--reuse DIR` measures only the browser phase on what a kept
 * run left, so the list's paint can be measured again without indexing 10,000 files again.
 */
import { mkdirSync, readdirSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { join } from 'node:path';
import { createCore, type Core } from '../../src/core/createCore';
import type { LibrarySnapshot } from '../../src/shared/domain/library';
import type { CallName } from '../../src/shared/ipc/contract';
import { tempDir } from '../../test/helpers/shared';
import { option, textOption } from './extract';
import { writeLibrary } from './libraryScaleCorpus';
import { editableFiles, measureListInChromium, type ListInBrowser } from './libraryScaleBrowser';
import { sampleTreeRss } from './processTreeMemory';
import type { BenchReport } from './report';

const LIST_CALLS = 40;
/** Rounds of the search queries: 40 searches each, scoped and not, for their p95. */
const SEARCH_ROUNDS = 5;
const QUERIES = ['pressure', 'contract', 'temperature', 'network', 'income', 'protein', 'voltage', 'storage'];
const TARGETS = {
  searchableSeconds: 600,
  peakBytes: 2 * 1024 ** 3,
  listP95Ms: 50,
  scopedRatio: 1.5,
  firstRowMs: 300,
  longestFrameMs: 50,
};
/** Files edited while the browser watches frames: enough to keep changes streaming for a while. */
const EDITED_FILES = 300;

function p95(times: number[]): number {
  const sorted = [...times].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(0.95 * sorted.length))] ?? NaN;
}

async function call(core: Core, name: CallName, input: unknown): Promise<unknown> {
  const result = await core.dispatch(name, input);
  if (!result.ok) throw new Error(`${name}: ${result.error.message}`);
  return result.value;
}

async function timeCalls(core: Core, name: CallName, inputs: unknown[]): Promise<number[]> {
  await call(core, name, inputs[0]); // warm caches
  const times: number[] = [];
  for (const input of inputs) {
    const started = performance.now();
    await call(core, name, input);
    times.push(performance.now() - started);
  }
  return times;
}

const unfinished = (snapshot: LibrarySnapshot) =>
  snapshot.documents.filter((d) => d.state === 'listed' || d.state === 'queued' || d.state === 'indexing')
    .length;

/** The bench's folder and data folder: temporary, or kept under the directory `--keep`/`--reuse` names. */
async function benchDirs(args: string[]) {
  const named = textOption(args, '--reuse') ?? textOption(args, '--keep');
  if (!named)
    return {
      folder: await tempDir('quire-bench-scale-folder-'),
      data: await tempDir('quire-bench-scale-data-'),
    };
  const kept = (name: string) => {
    const path = join(named, name);
    mkdirSync(path, { recursive: true });
    return { path, cleanup: async () => {} };
  };
  return { folder: kept('folder'), data: kept('data') };
}

export async function run(args: string[]): Promise<BenchReport> {
  const count = option(args, '--files', 10_000);
  const { folder, data } = await benchDirs(args);
  const images = args.includes('--images');
  if (args.includes('--reuse')) return browserOnly(folder.path, data.path, images);
  const writeStarted = performance.now();
  const generated = await writeLibrary(folder.path, count);
  const writeSeconds = (performance.now() - writeStarted) / 1000;
  console.error(`wrote ${count} files in ${writeSeconds.toFixed(1)} s`);

  try {
    const memory = sampleTreeRss();
    const core = createCore({
      dataDir: data.path,
      watch: false,
      findModels: false,
      renderImages: images,
    });
    let measured: CoreFigures;
    try {
      measured = await measureCore(core, folder.path, count, memory);
    } finally {
      memory.stop();
      await core.dispose();
    }
    const names = readdirSync(folder.path, { recursive: true }) as string[];
    const browser: ListInBrowser | null = args.includes('--no-browser')
      ? null
      : await measureListInChromium(data.path, editableFiles(folder.path, names, EDITED_FILES), { images });
    return report(measured, browser, { generated, writeSeconds });
  } finally {
    await folder.cleanup();
    await data.cleanup();
  }
}

async function browserOnly(folder: string, data: string, images: boolean): Promise<BenchReport> {
  const names = readdirSync(folder, { recursive: true }) as string[];
  const browser = await measureListInChromium(data, editableFiles(folder, names, EDITED_FILES), { images });
  return {
    name: 'library-scale',
    rows: browserRows(browser),
    details: { reused: data, browser },
  };
}

async function measureCore(
  core: Core,
  folder: string,
  count: number,
  memory: ReturnType<typeof sampleTreeRss>,
) {
  await core.start();
  const started = performance.now();
  let listedSeconds: number | null = null;
  let searchableSeconds: number | null = null;
  const sampler = setInterval(() => {
    const snapshot = core.library.snapshot();
    if (listedSeconds === null && !snapshot.scanning && snapshot.documents.length > 0)
      listedSeconds = (performance.now() - started) / 1000;
    if (searchableSeconds === null && snapshot.documents.length === count && unfinished(snapshot) === 0)
      searchableSeconds = (performance.now() - started) / 1000;
  }, 100);
  const progress = setInterval(() => {
    const snapshot = core.library.snapshot();
    const seconds = ((performance.now() - started) / 1000).toFixed(0);
    console.error(`${seconds} s: ${snapshot.documents.length} listed, ${unfinished(snapshot)} to index`);
  }, 15_000);
  await core.library.addFolder(folder);
  do {
    await core.library.whenIdle();
    await core.ingestion.whenIdle();
  } while (core.library.snapshot().scanning || unfinished(core.library.snapshot()) > 0);
  clearInterval(sampler);
  clearInterval(progress);
  const indexedSeconds = (performance.now() - started) / 1000;
  const peakBytes = memory.stop();

  const snapshot = (await call(core, 'library.list', {})) as LibrarySnapshot;
  const states: Record<string, number> = {};
  for (const d of snapshot.documents) states[d.state] = (states[d.state] ?? 0) + 1;
  const listTimes = await timeCalls(
    core,
    'library.list',
    Array.from({ length: LIST_CALLS }, () => ({})),
  );
  const folderScope = { paths: [join(folder, 'folder-007')] };
  // A p95 of eight searches is their slowest: each set runs in rounds, the two alternating, so that a
  // busy moment of the machine weighs on both alike.
  const unscopedTimes: number[] = [];
  const scopedTimes: number[] = [];
  for (let round = 0; round < SEARCH_ROUNDS; round++) {
    unscopedTimes.push(
      ...(await timeCalls(
        core,
        'search.query',
        QUERIES.map((query) => ({ query, k: 10 })),
      )),
    );
    scopedTimes.push(
      ...(await timeCalls(
        core,
        'search.query',
        QUERIES.map((query) => ({ query, k: 10, scope: folderScope })),
      )),
    );
  }
  const unscoped = p95(unscopedTimes);
  const scoped = p95(scopedTimes);
  return {
    files: snapshot.documents.length,
    pages: snapshot.documents.reduce((sum, d) => sum + (d.pages ?? 0), 0),
    listedSeconds: listedSeconds ?? indexedSeconds,
    searchableSeconds: searchableSeconds ?? indexedSeconds,
    indexedSeconds,
    peakBytes,
    listP95: p95(listTimes),
    payloadBytes: Buffer.byteLength(JSON.stringify(snapshot)),
    unscoped,
    scoped,
    states,
  };
}

type CoreFigures = Awaited<ReturnType<typeof measureCore>>;

function browserRows(browser: ListInBrowser): BenchReport['rows'] {
  return [
    {
      measure: `Chromium: first document row painted, ms (median of ${browser.coldFirstRowsMs.length} cold starts)`,
      value: browser.firstRowMs,
    },
    ...browser.coldFirstRowsMs.map((value, i) => ({ measure: `  cold start ${i + 1}, ms`, value })),
    {
      measure: '  of the median start, after the app script arrived, ms',
      value: browser.firstRowAfterScriptMs,
    },
    { measure: 'Chromium: first document row painted after a reload, ms', value: browser.firstRowReloadedMs },
    {
      measure: `Chromium: longest frame while ${browser.changedFiles} files change, ms`,
      value: browser.longestFrameMs,
    },
  ];
}

function report(
  m: CoreFigures,
  browser: ListInBrowser | null,
  details: Record<string, unknown>,
): BenchReport {
  const ratio = m.scoped / m.unscoped;
  const rows: BenchReport['rows'] = [
    { measure: 'files', value: m.files },
    { measure: 'pages (as read)', value: m.pages },
    { measure: 'seconds to list the folder', value: m.listedSeconds },
    { measure: 'seconds until every file is searchable', value: m.searchableSeconds },
    { measure: 'peak resident MB (all processes)', value: m.peakBytes / 1024 ** 2 },
    { measure: 'library.list p95 ms', value: m.listP95 },
    { measure: 'library.list payload KB', value: m.payloadBytes / 1024 },
    { measure: 'search p95 ms, whole library', value: m.unscoped },
    { measure: 'search p95 ms, one folder', value: m.scoped },
  ];
  const targets: NonNullable<BenchReport['targets']> = [
    {
      what: 'every file searchable',
      target: `< ${TARGETS.searchableSeconds} s`,
      measured: `${m.searchableSeconds.toFixed(1)} s`,
      met: m.searchableSeconds < TARGETS.searchableSeconds,
    },
    {
      what: 'peak resident, all processes',
      target: '< 2 GB',
      measured: `${(m.peakBytes / 1024 ** 3).toFixed(2)} GB`,
      met: m.peakBytes < TARGETS.peakBytes,
    },
    {
      what: 'library.list p95',
      target: `< ${TARGETS.listP95Ms} ms`,
      measured: `${m.listP95.toFixed(1)} ms`,
      met: m.listP95 < TARGETS.listP95Ms,
    },
    {
      what: 'scoped / unscoped search p95',
      target: `<= ${TARGETS.scopedRatio}x`,
      measured: `${ratio.toFixed(2)}x`,
      met: ratio <= TARGETS.scopedRatio,
    },
  ];
  if (browser) {
    rows.push(...browserRows(browser));
    targets.push(
      {
        what: 'library list painted',
        target: `< ${TARGETS.firstRowMs} ms`,
        measured: `${browser.firstRowMs.toFixed(0)} ms`,
        met: browser.firstRowMs < TARGETS.firstRowMs,
      },
      {
        what: 'longest frame while the library changes',
        target: `<= ${TARGETS.longestFrameMs} ms`,
        measured: `${browser.longestFrameMs.toFixed(0)} ms`,
        met: browser.longestFrameMs <= TARGETS.longestFrameMs,
      },
    );
  }
  return {
    name: 'library-scale',
    rows,
    targets,
    details: { ...details, states: m.states, indexedSeconds: m.indexedSeconds, browser },
  };
}
