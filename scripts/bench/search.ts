/**
 * `npm run bench -- search [--chunks N] [--index <dir>]`: query latency of the index. Builds N
 * synthetic chunks (default 100,000) from shuffled words of the QA reference texts, embeds them
 * with the deterministic hash embedder, and times BM25, dense and hybrid queries before and after
 * optimize(). With --index, also times BM25 over an existing index folder.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

import type { TextChunk } from '../../src/core/documents/types';
import { Index } from '../../src/core/index/openIndex';
import type { ChunkSearchOptions } from '../../src/core/index/search/indexSearch';
import { sharedDir, tempDir } from '../../test/helpers/shared';
import { documentRow, HashTextEmbedder, sha256 } from '../../test/index/helpers';
import { peakRssBytes, type BenchReport, percentile } from './report';

const CHUNKS_PER_DOCUMENT = 1000;
const CHUNKS_PER_PAGE = 20;
const WORDS_PER_CHUNK = 120;
const QUERIES = 200;
const P95_TARGET_MS = 50;

/** A small seeded generator (mulberry32) so every run builds the same corpus and queries. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function vocabulary(): Promise<string[]> {
  const dir = join(sharedDir, 'qa', 'text');
  const words: string[] = [];
  // Only the files at the top: subfolders hold other formats' reference texts.
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const text = await readFile(join(dir, entry.name), 'utf8');
    words.push(...(text.match(/[\p{L}][\p{L}\p{N}]{2,}/gu) ?? []));
  }
  if (words.length === 0) throw new Error(`No words found under ${dir}.`);
  return words;
}

async function timeQueries(store: Index, queries: string[], options: ChunkSearchOptions) {
  await store.search.chunks(queries[0]!, options); // warm caches
  const times: number[] = [];
  let hits = 0;
  for (const query of queries) {
    const started = performance.now();
    hits += (await store.search.chunks(query, options)).length;
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p95: percentile(times, 95), meanHits: hits / queries.length };
}

async function buildSynthetic(store: Index, total: number, words: string[], random: () => number) {
  const pick = () => words[Math.floor(random() * words.length)]!;
  for (let doc = 0; doc * CHUNKS_PER_DOCUMENT < total; doc++) {
    const count = Math.min(CHUNKS_PER_DOCUMENT, total - doc * CHUNKS_PER_DOCUMENT);
    const pageCount = Math.ceil(count / CHUNKS_PER_PAGE);
    const pageTexts = Array.from({ length: pageCount }, () => '');
    const chunks: TextChunk[] = [];
    for (let index = 0; index < count; index++) {
      const text = Array.from({ length: WORDS_PER_CHUNK }, pick).join(' ');
      const page = Math.floor(index / CHUNKS_PER_PAGE) + 1;
      const start = pageTexts[page - 1]!.length;
      pageTexts[page - 1] += text + '\n';
      chunks.push({
        index,
        page,
        text,
        charStart: start,
        charEnd: start + text.length,
        boxes: [],
        heading: null,
      });
    }
    const hash = sha256(`synthetic-${doc}`);
    await store.content.put(hash, {
      kind: 'pdf',
      title: `Synthetic ${doc}`,
      pages: pageTexts.map((text, i) => ({ page: i + 1, width: 612, height: 792, text, needsOcr: false })),
      chunks,
    });
    await store.documents.upsert(documentRow(`synthetic-${doc}`, hash, { pages: pageCount }));
  }
}

async function syntheticRows(
  total: number,
): Promise<{ rows: BenchReport['rows']; details: Record<string, unknown> }> {
  const random = seeded(42);
  const words = await vocabulary();
  const queries = Array.from({ length: QUERIES }, () => {
    const length = 2 + Math.floor(random() * 4);
    return Array.from({ length }, () => words[Math.floor(random() * words.length)]!).join(' ');
  });
  const dir = await tempDir('quire-bench-search-');
  const store = await Index.open({ uri: dir.path });
  try {
    let started = performance.now();
    await buildSynthetic(store, total, words, random);
    const buildSeconds = (performance.now() - started) / 1000;
    started = performance.now();
    await store.vectors.setEmbedders({ text: new HashTextEmbedder('bench:hash-64', 64), page: null });
    await store.vectors.embedPending({ batchSize: 512 });
    const embedSeconds = (performance.now() - started) / 1000;

    const rows: BenchReport['rows'] = [];
    const measure = async (label: string, options: ChunkSearchOptions) => {
      const result = await timeQueries(store, queries, options);
      rows.push({
        index: `synthetic ${total}`,
        state: label,
        mode: options.mode ?? 'default',
        k: options.k ?? 10,
        ...result,
      });
    };
    await measure('fresh', { mode: 'bm25', k: 10 });
    started = performance.now();
    await store.maintenance.optimize({ cleanupOlderThan: new Date() });
    const optimizeSeconds = (performance.now() - started) / 1000;
    await measure('optimized', { mode: 'bm25', k: 10 });
    await measure('optimized', { mode: 'dense', k: 10 });
    await measure('optimized', { mode: 'hybrid', k: 10 });
    const filter = { documentIds: ['synthetic-3'] };
    const filtered = await timeQueries(store, queries, { mode: 'hybrid', k: 10, filter });
    rows.push({
      index: `synthetic ${total}`,
      state: 'optimized, one document',
      mode: 'hybrid',
      k: 10,
      ...filtered,
    });
    // Scopes as callers pass them (resolved by the index into a prefilter): half the library, one file.
    const ids = store.documents.list().map((d) => d.id);
    const scopes = {
      'scope: half the documents': { documents: ids.filter((_, i) => i % 2 === 0) },
      'scope: one file': { paths: [store.documents.list()[1]?.path ?? ''] },
    };
    for (const [state, scope] of Object.entries(scopes)) {
      for (const mode of ['bm25', 'hybrid'] as const) {
        const result = await timeQueries(store, queries, { mode, k: 10, filter: { scope } });
        rows.push({ index: `synthetic ${total}`, state: `optimized, ${state}`, mode, k: 10, ...result });
      }
    }
    return {
      rows,
      details: { buildSeconds, embedSeconds, optimizeSeconds, stats: await store.maintenance.stats() },
    };
  } finally {
    await store.dispose();
    await dir.cleanup();
  }
}

async function existingIndexRows(uri: string): Promise<BenchReport['rows']> {
  const store = await Index.open({ uri });
  try {
    const random = seeded(7);
    const documents = store.documents.list().filter((d) => d.state === 'indexed');
    if (documents.length === 0) return [{ index: uri, state: 'empty', mode: 'bm25', k: 10 }];
    const queries: string[] = [];
    while (queries.length < QUERIES) {
      const document = documents[Math.floor(random() * documents.length)]!;
      const page = await store.content.page(
        document.id,
        1 + Math.floor(random() * Math.max(1, document.pages ?? 1)),
      );
      const words = page.text.match(/[\p{L}]{4,}/gu) ?? [];
      if (words.length < 3) continue;
      const at = Math.floor(random() * (words.length - 2));
      queries.push(words.slice(at, at + 3).join(' '));
    }
    const result = await timeQueries(store, queries, { mode: 'bm25', k: 10 });
    return [{ index: uri, state: 'as found', mode: 'bm25', k: 10, ...result }];
  } finally {
    await store.dispose();
  }
}

export async function run(args: string[]): Promise<BenchReport> {
  const option = (name: string) => {
    const at = args.indexOf(name);
    return at === -1 ? undefined : args[at + 1];
  };
  const total = Number(option('--chunks') ?? 100_000);
  if (!Number.isInteger(total) || total <= 0) throw new Error('--chunks must be a positive whole number.');
  process.env.LANCEDB_LOG ??= 'error';
  const synthetic = await syntheticRows(total);
  const indexDir = option('--index');
  const rows = [...synthetic.rows, ...(indexDir ? await existingIndexRows(indexDir) : [])];
  const p95Of = (mode: string) =>
    rows.find((row) => row.state === 'optimized' && row.mode === mode)?.p95 as number;
  return {
    name: 'search',
    rows,
    targets: [
      ...(['bm25', 'hybrid'] as const).map((mode) => ({
        what: `${mode} p95 over ${total} chunks`,
        target: `< ${P95_TARGET_MS} ms`,
        measured: `${p95Of(mode).toFixed(1)} ms`,
        met: p95Of(mode) < P95_TARGET_MS,
      })),
      // Scoped search ranks only the scope's rows: it should cost about what a whole-library search does.
      ...(['bm25', 'hybrid'] as const).map((mode) => {
        const scoped = rows.find(
          (row) => row.state === 'optimized, scope: half the documents' && row.mode === mode,
        )?.p95 as number;
        const ratio = scoped / p95Of(mode);
        return {
          what: `${mode} p95 scoped to half the documents / whole library`,
          target: '<= 1.5x',
          measured: `${ratio.toFixed(2)}x (${scoped.toFixed(1)} ms)`,
          met: ratio <= 1.5,
        };
      }),
    ],
    details: { ...synthetic.details, queries: QUERIES, peakRssBytes: peakRssBytes() },
  };
}
