/**
 * `npm run bench -- extract [--limit N] [--pool N] [--render-pages N] [--long-render-pages N] [--long-edge PX] [--heap-mb MB] [--recycle JOBS]`: text extraction
 * + chunking and page rasterization through the document pool, against poppler's pdftotext and
 * `pdftoppm -scale-to` on the same files with the same concurrency, in the same run. Also the main
 * thread's event-loop delay while the pool works, peak RSS, and every page of the 619-page DA-619p.pdf read and drawn, for memory.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import { createDocumentPool, type DocumentPool } from '../../src/core/documents/pool/documentPool';
import { PageImageStore } from '../../src/core/documents/render/pageImageStore';
import { Index } from '../../src/core/index/openIndex';
import { corpusDir, readManifest, tempDir, type ManifestRow } from '../../test/helpers/shared';
import { peakRssBytes, type BenchReport } from './report';

const run$ = promisify(execFile);

export type PagedRow = ManifestRow & { pages: number };

export function option(args: string[], name: string, fallback: number): number {
  const index = args.indexOf(name);
  const value = index >= 0 ? Number(args[index + 1]) : NaN;
  return Number.isFinite(value) && value > 0 ? value : fallback;
}

/** The text after `name` in the arguments, if it is there. */
export function textOption(args: string[], name: string): string | undefined {
  const index = args.indexOf(name);
  return index >= 0 ? args[index + 1] : undefined;
}

/** The corpus's readable PDFs (not the odd ones), in path order. */
export function readablePdfs(): PagedRow[] {
  return readManifest()
    .filter(
      (row): row is PagedRow => row.pages !== null && row.pages > 0 && !row.localPath.startsWith('odd/'),
    )
    .sort((a, b) => a.localPath.localeCompare(b.localPath));
}

/** Files taken round-robin across sources, so a short run still sees every kind of document. */
export function pickFiles(rows: PagedRow[], limit: number): PagedRow[] {
  const bySource = new Map<string, PagedRow[]>();
  for (const row of rows) bySource.set(row.source, [...(bySource.get(row.source) ?? []), row]);
  const queues = [...bySource.values()];
  const picked: PagedRow[] = [];
  while (picked.length < limit && queues.some((queue) => queue.length > 0)) {
    for (const queue of queues) {
      const next = queue.shift();
      if (next && picked.length < limit) picked.push(next);
    }
  }
  return picked;
}

/** Runs `tasks` with at most `concurrency` at once; resolves with the wall time in seconds. */
async function timed(concurrency: number, tasks: Array<() => Promise<unknown>>): Promise<number> {
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < tasks.length) await tasks[next++]!().catch(() => undefined);
    }),
  );
  return (performance.now() - started) / 1000;
}

/** Event-loop delay of this (main) thread and the highest RSS sampled while `work` runs. */
async function observed<T>(
  work: () => Promise<T>,
): Promise<{ result: T; p99Ms: number; maxMs: number; rssMb: number }> {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  let rss = process.memoryUsage.rss();
  const sampler = setInterval(() => (rss = Math.max(rss, process.memoryUsage.rss())), 100);
  histogram.enable();
  try {
    const result = await work();
    return {
      result,
      p99Ms: histogram.percentile(99) / 1e6,
      maxMs: histogram.max / 1e6,
      rssMb: rss / 2 ** 20,
    };
  } finally {
    histogram.disable();
    clearInterval(sampler);
  }
}

const pageList = (pages: number, limit: number) =>
  Array.from({ length: Math.min(pages, limit) }, (_, i) => i + 1);

export async function run(args: string[]): Promise<BenchReport> {
  const rows = readablePdfs();
  const files = pickFiles(rows, option(args, '--limit', rows.length));
  const size = option(args, '--pool', availableParallelism());
  const renderPages = option(args, '--render-pages', 3);
  const largeRenderPages = option(args, '--long-render-pages', Infinity);
  const longEdge = option(args, '--long-edge', 1600);
  const path = (row: ManifestRow) => join(corpusDir, row.localPath);
  const scratch = await tempDir('quire-bench-extract-');
  const heapMb = option(args, '--heap-mb', 0);
  const recycle = option(args, '--recycle', 0);
  const pool: DocumentPool = createDocumentPool({
    size,
    ...(heapMb > 0 ? { workerHeapMb: heapMb } : {}),
    ...(recycle > 0 ? { recycleAfterJobs: recycle } : {}),
  });
  try {
    // Start the workers (and load pdfjs) before timing anything.
    const smallest = [...files].sort((a, b) => a.bytes - b.bytes)[0]!;
    await Promise.all(
      Array.from({ length: size }, () => pool.parse(path(smallest), { kind: 'pdf' }).catch(() => undefined)),
    );

    const index = await Index.open({ uri: join(scratch.path, 'index') });
    let textPages = 0;
    let chunks = 0;
    let failures = 0;
    const text = await observed(() =>
      timed(
        size,
        files.map((row) => async () => {
          try {
            const parsed = await pool.parse(path(row), { kind: 'pdf' });
            // What ingestion does with the text: store the chunks in the BM25-indexed table.
            const contentHash = createHash('sha256').update(row.localPath).digest('hex');
            await index.content.put(contentHash, parsed, [], { fileName: row.localPath });
            await index.documents.upsert({
              id: contentHash.slice(0, 16),
              path: path(row),
              rootId: 'bench',
              contentHash,
              kind: 'pdf',
              title: parsed.title,
              pages: parsed.pages.length,
              bytes: row.bytes,
              modifiedMs: 0,
              state: 'indexed',
              error: null,
              indexedAt: Date.now(),
            });
            textPages += parsed.pages.length;
            chunks += parsed.chunks.length;
          } catch {
            failures++;
          }
        }),
      ),
    );
    await index.dispose();
    const popplerTextSeconds = await timed(
      size,
      files.map(
        (row) => () => run$('pdftotext', ['-enc', 'UTF-8', path(row), '/dev/null'], { maxBuffer: 1 << 26 }),
      ),
    );
    const popplerTextPages = files.reduce((sum, row) => sum + row.pages, 0);

    const store = new PageImageStore(join(scratch.path, 'images'));
    let imagePages = 0;
    const images = await observed(() =>
      timed(
        size,
        files.map((row, i) => async () => {
          const pages = pageList(row.pages, renderPages);
          const refs = await pool.render(
            path(row),
            { contentHash: i.toString(16).padStart(64, '0'), pages, longEdge },
            store,
          );
          imagePages += refs.length;
        }),
      ),
    );
    const popplerImagePages = files.reduce((sum, row) => sum + Math.min(row.pages, renderPages), 0);
    const popplerImageSeconds = await timed(
      size,
      files.map(
        (row, i) => () =>
          run$('pdftoppm', [
            '-scale-to',
            String(longEdge),
            '-f',
            '1',
            '-l',
            String(Math.min(row.pages, renderPages)),
            path(row),
            join(scratch.path, `ppm-${i}`),
          ]),
      ),
    );

    // Memory: the 619-page army pamphlet (else the longest file), every page read and drawn.
    const longest =
      rows.find((row) => row.localPath.endsWith('/DA-619p.pdf')) ??
      [...rows].sort((a, b) => b.pages - a.pages)[0]!;
    const large = await observed(async () => {
      let started = performance.now();
      const parsed = await pool.parse(path(longest), { kind: 'pdf' });
      const parseSeconds = (performance.now() - started) / 1000;
      started = performance.now();
      const refs = await pool.render(
        path(longest),
        { contentHash: 'f'.repeat(64), pages: pageList(longest.pages, largeRenderPages), longEdge },
        store,
      );
      return {
        pages: parsed.pages.length,
        parseSeconds,
        drawn: refs.length,
        drawSeconds: (performance.now() - started) / 1000,
      };
    });

    const textRate = textPages / text.result;
    const popplerTextRate = popplerTextPages / popplerTextSeconds;
    const imageRate = imagePages / images.result;
    const popplerImageRate = popplerImagePages / popplerImageSeconds;
    const peakMb = peakRssBytes() / 2 ** 20;
    const loopP99 = Math.max(text.p99Ms, images.p99Ms, large.p99Ms);
    return {
      name: 'extract',
      rows: [
        {
          task: 'text + chunks + BM25 index',
          files: files.length,
          pages: textPages,
          seconds: text.result,
          pagesPerSecond: textRate,
          loopP99Ms: text.p99Ms,
          loopMaxMs: text.maxMs,
          rssMb: text.rssMb,
        },
        {
          task: 'pdftotext',
          files: files.length,
          pages: popplerTextPages,
          seconds: popplerTextSeconds,
          pagesPerSecond: popplerTextRate,
        },
        {
          task: `webp ${longEdge}px + thumb (pool)`,
          files: files.length,
          pages: imagePages,
          seconds: images.result,
          pagesPerSecond: imageRate,
          loopP99Ms: images.p99Ms,
          loopMaxMs: images.maxMs,
          rssMb: images.rssMb,
        },
        {
          task: `pdftoppm -scale-to ${longEdge}`,
          files: files.length,
          pages: popplerImagePages,
          seconds: popplerImageSeconds,
          pagesPerSecond: popplerImagePages / popplerImageSeconds,
        },
        {
          task: `text: ${longest.localPath}`,
          files: 1,
          pages: large.result.pages,
          seconds: large.result.parseSeconds,
          pagesPerSecond: large.result.pages / large.result.parseSeconds,
          loopP99Ms: large.p99Ms,
          loopMaxMs: large.maxMs,
          rssMb: large.rssMb,
        },
        {
          task: `images: ${longest.localPath}`,
          files: 1,
          pages: large.result.drawn,
          seconds: large.result.drawSeconds,
          pagesPerSecond: large.result.drawn / large.result.drawSeconds,
        },
      ],
      targets: [
        {
          what: 'text + chunks + BM25 pages/s vs pdftotext',
          target: '>= 0.5x',
          measured: `${(textRate / popplerTextRate).toFixed(2)}x`,
          met: textRate / popplerTextRate >= 0.5,
        },
        {
          what: `images pages/s vs pdftoppm at ${longEdge}px`,
          target: '>= 0.5x',
          measured: `${(imageRate / popplerImageRate).toFixed(2)}x`,
          met: imageRate / popplerImageRate >= 0.5,
        },
        { what: 'peak RSS', target: '< 1536 MB', measured: `${peakMb.toFixed(0)} MB`, met: peakMb < 1536 },
        {
          what: 'main-thread event-loop delay p99',
          target: '< 100 ms',
          measured: `${loopP99.toFixed(1)} ms`,
          met: loopP99 < 100,
        },
      ],
      details: {
        poolSize: size,
        renderPagesPerFile: renderPages,
        longEdge,
        chunks,
        parseFailures: failures,
        longest: longest.localPath,
      },
    };
  } finally {
    await pool.dispose();
    await scratch.cleanup();
  }
}
