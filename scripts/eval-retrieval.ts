/**
 * `npm run eval -- retrieval [--limit N] [--chunks-per-query N] [--reranker PATH.gguf] [--model PATH.gguf] [--no-rerank]
 *  [--mode bm25|dense|hybrid[,...] --embedder DIR ...] [--mode pages --page-embedder PATH.onnx]`:
 * page retrieval quality on the answerable dev questions. Every question's PDF is read with the
 * document readers and indexed in a temporary index; each question is searched across all those
 * documents (and, for plain search, within its own document), with and without query rewriting and
 * re-ranking, and the first ten distinct pages are scored against the gold pages.
 * Without `--reranker` the re-ranking rows use the tiny random-weight reranker the tests write: a
 * control that shows what an uninformed reordering costs, not a quality figure.
 * `--mode dense,hybrid` with one or more `--embedder DIR` (an ONNX text embedder folder; QUIRE_EMBEDDER)
 * embeds every chunk with each embedder in turn and scores dense and hybrid search beside BM25, with
 * each embedder's chunks per second and every variant's milliseconds per query.
 * `--mode pages` (with a page embedder from --page-embedder or QUIRE_PAGE_EMBEDDER) also draws and
 * embeds every page and scores page search beside BM25 on the same questions (eval-pages.ts).
 * Prints a table and writes JSON under bench-results/.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { basename, join } from 'node:path';
import { performance } from 'node:perf_hooks';

import { DEFAULT_CHUNKING, type ChunkingOptions } from '../src/core/documents/layout/chunker';
import { parseDocument } from '../src/core/documents/parseDocument';
import { Index } from '../src/core/index/openIndex';
import type { SearchFilter } from '../src/core/index/search/searchScope';
import { createLlamaProvider, type LlamaProvider } from '../src/core/models/llama/llamaProvider';
import { createLlamaReranker, type LlamaReranker } from '../src/core/models/llama/llamaReranker';
import { OnnxTextEmbedder } from '../src/core/models/onnx/onnxTextEmbedder';
import type { TextEmbedder } from '../src/core/models/types';
import type { ChunkSearchMode } from '../src/core/agent/ports';
import { retrieve, type RetrievalPorts } from '../src/core/retrieval/retriever';
import { sharedDir, tempDir } from '../test/helpers/shared';
import { writeTinyGguf } from '../test/helpers/tinyModel';
import { printTable, writeReport, type BenchReport } from './bench/report';
import { evaluatePages, pageFiguresCaveat, type PageEval } from './eval-pages';

interface Question {
  id: string;
  source: string;
  question: string;
  doc: string;
  gold_pages: number[];
  answerable: boolean;
}

/** BM25 over whole pages, across every page of these documents together (the numbers). */
const BASELINE = { hit1: 0.253, hit5: 0.388, hit10: 0.427 };
const HIT5_TARGET = 0.55;
const PAGES_SCORED = 10;

async function readQuestions(limit: number): Promise<Question[]> {
  const lines = (await readFile(join(sharedDir, 'qa', 'dev.jsonl'), 'utf8')).split('\n').filter(Boolean);
  return lines
    .map((line) => JSON.parse(line) as Question)
    .filter((q) => q.answerable)
    .slice(0, limit);
}

const documentId = (doc: string) => createHash('sha256').update(doc).digest('hex').slice(0, 16);

async function indexDocuments(
  store: Index,
  docs: string[],
  chunking: ChunkingOptions | undefined,
): Promise<{ pages: number; failed: string[] }> {
  let pages = 0;
  const failed: string[] = [];
  for (const [i, doc] of docs.entries()) {
    const path = join(sharedDir, doc);
    const existing = store.documents.get(documentId(doc));
    if (existing?.state === 'indexed') {
      pages += existing.pages ?? 0;
      continue;
    }
    try {
      const bytes = await readFile(path);
      const contentHash = createHash('sha256').update(bytes).digest('hex');
      const parsed = await parseDocument(path, { kind: 'pdf', ...(chunking ? { chunking } : {}) });
      await store.content.put(contentHash, parsed, [], { fileName: basename(path) });
      await store.documents.upsert({
        id: documentId(doc),
        path,
        rootId: doc.split('/')[1] ?? 'corpus',
        contentHash,
        kind: 'pdf',
        title: parsed.title,
        pages: parsed.pages.length,
        bytes: bytes.length,
        modifiedMs: 0,
        state: 'indexed',
        error: null,
        indexedAt: Date.now(),
      });
      pages += parsed.pages.length;
    } catch (error) {
      failed.push(`${doc}: ${error instanceof Error ? error.message : String(error)}`);
    }
    process.stderr.write(`\rindexed ${i + 1}/${docs.length} documents, ${pages} pages`);
  }
  process.stderr.write('\n');
  return { pages, failed };
}

interface Variant {
  label: string;
  mode: ChunkSearchMode;
  rewrite: boolean;
  rerank: boolean;
  /** Weigh passages by their document's share of the evidence (on in the product). */
  documentPrior: boolean;
}

/** 1-based rank of the first gold page among the first distinct (document, page) pairs, or null. */
async function goldRank(
  ports: RetrievalPorts,
  question: Question,
  variant: Variant,
  depth: number,
): Promise<number | null> {
  const { hits } = await retrieve(ports, question.question, {
    k: depth,
    mode: variant.mode,
    rewrite: variant.rewrite,
    rerank: variant.rerank,
    rerankBudgetMs: 60_000,
  });
  const seen = new Set<string>();
  for (const hit of hits) {
    const key = `${hit.documentId}#${hit.page}`;
    if (seen.has(key)) continue;
    seen.add(key);
    if (hit.documentId === documentId(question.doc) && question.gold_pages.includes(hit.page))
      return seen.size;
    if (seen.size === PAGES_SCORED) break;
  }
  return null;
}

function storePorts(
  store: Index,
  filter: SearchFilter | undefined,
  reranker: LlamaReranker | null,
  chat: LlamaProvider | null,
  documentPrior: boolean,
  mode: ChunkSearchMode = 'bm25',
): RetrievalPorts {
  return {
    search: (query, options) =>
      store.search.chunks(query, {
        k: options.k,
        mode,
        documentPrior,
        withText: true,
        ...(filter ? { filter } : {}),
      }),
    reranker: async () => reranker,
    chatModel: async () => chat,
  };
}

function summarise(scope: string, source: string, ranks: Array<number | null>) {
  const n = ranks.length;
  const within = (k: number) => ranks.filter((rank) => rank !== null && rank <= k).length / n;
  return {
    scope,
    source,
    questions: n,
    hit1: within(1),
    hit5: within(5),
    hit10: within(10),
    mrr10: ranks.reduce<number>((sum, rank) => sum + (rank === null ? 0 : 1 / rank), 0) / n,
  };
}

interface EmbedderSummary {
  embedder: string;
  chunks: number;
  seconds: number;
  chunksPerSecond: number;
}

/** Embeds every chunk of the store with the text embedder in `path`, which becomes the active one. */
async function embedChunks(
  store: Index,
  path: string,
): Promise<{ summary: EmbedderSummary; embedder: OnnxTextEmbedder }> {
  const embedder = await OnnxTextEmbedder.create({ modelPath: path, threads: availableParallelism() });
  await store.vectors.setEmbedders({ text: embedder, page: null });
  const started = performance.now();
  const outcome = await store.vectors.embedPending({
    batchSize: 64,
    onProgress: (p) => process.stderr.write(`\rembedding with ${basename(path)}: ${p.done}/${p.total}`),
  });
  const seconds = (performance.now() - started) / 1000;
  process.stderr.write('\n');
  if (!outcome.complete) throw new Error(`${path} did not embed every chunk.`);
  return {
    summary: {
      embedder: basename(path),
      chunks: outcome.embedded,
      seconds,
      chunksPerSecond: outcome.embedded / seconds,
    },
    embedder,
  };
}

/** The embedder under the same id, with every query embedded the way its passages are. */
function queriesAsPassages(embedder: TextEmbedder): TextEmbedder {
  return {
    id: embedder.id,
    dimensions: embedder.dimensions,
    embed: (texts, options) => embedder.embed(texts, { ...options, kind: 'passage' }),
  };
}

/** The issue's targets for text embedders: dense alone above BM25's hit@10, hybrid hit@5 at least 0.55. */
function textTargets(
  rows: BenchReport['rows'],
  bm25: BenchReport['rows'][number],
  embedders: EmbedderSummary[],
): NonNullable<BenchReport['targets']> {
  const row = (label: string) => rows.find((r) => r.scope === `${label}, all docs` && r.source === 'all');
  return embedders.flatMap(({ embedder }) => {
    const dense = row(`dense (${embedder}) + document prior`);
    const hybrid = row(`hybrid (${embedder}) + document prior`);
    return [
      ...(dense
        ? [
            {
              what: `dense (${embedder}) hit@10 above BM25's (document prior on both)`,
              target: `> ${(bm25.hit10 as number).toFixed(3)}`,
              measured: (dense.hit10 as number).toFixed(3),
              met: (dense.hit10 as number) > (bm25.hit10 as number),
            },
          ]
        : []),
      ...(hybrid
        ? [
            {
              what: `hybrid (${embedder}) hit@5, document prior on`,
              target: `>= ${HIT5_TARGET}`,
              measured: (hybrid.hit5 as number).toFixed(3),
              met: (hybrid.hit5 as number) >= HIT5_TARGET,
            },
          ]
        : []),
    ];
  });
}

export async function run(args: string[]): Promise<BenchReport> {
  const option = (name: string, fallback: number) => {
    const at = args.indexOf(name);
    const value = at === -1 ? fallback : Number(args[at + 1]);
    if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a positive whole number.`);
    return value;
  };
  const limit = option('--limit', Number.MAX_SAFE_INTEGER);
  const depth = option('--chunks-per-query', 100);
  // --chunk-words min,max tries another chunk size than the readers' default.
  const sizeAt = args.indexOf('--chunk-words');
  const [minWords, maxWords] = sizeAt === -1 ? [] : (args[sizeAt + 1] ?? '').split(',').map(Number);
  const chunking =
    minWords && maxWords
      ? { ...DEFAULT_CHUNKING, minWords, maxWords, overlapWords: Math.round(minWords / 4) }
      : undefined;
  process.env.LANCEDB_LOG ??= 'error';
  const modeAt = args.indexOf('--mode');
  const modes = (modeAt === -1 ? 'bm25' : (args[modeAt + 1] ?? '')).split(',');
  for (const m of modes)
    if (!['bm25', 'dense', 'hybrid', 'pages'].includes(m))
      throw new Error(`--mode takes bm25, dense, hybrid or pages (comma-separated), not "${m}".`);
  const mode = modes.includes('pages') ? 'pages' : 'text';
  const textModes = modes.filter((m): m is 'dense' | 'hybrid' => m === 'dense' || m === 'hybrid');
  const embedderPaths = args.flatMap((arg, i) => (arg === '--embedder' && args[i + 1] ? [args[i + 1]!] : []));
  if (embedderPaths.length === 0 && process.env.QUIRE_EMBEDDER)
    embedderPaths.push(process.env.QUIRE_EMBEDDER);
  if (textModes.length > 0 && embedderPaths.length === 0)
    throw new Error(
      '--mode dense or hybrid needs a text embedder: give its folder with --embedder DIR (or QUIRE_EMBEDDER).',
    );
  const embedderAt = args.indexOf('--page-embedder');
  const pageEmbedder =
    (embedderAt === -1 ? undefined : args[embedderAt + 1]) ?? process.env.QUIRE_PAGE_EMBEDDER ?? null;
  if (mode === 'pages' && !pageEmbedder)
    throw new Error(
      '--mode pages needs a page embedder: give an ONNX export with --page-embedder PATH (or QUIRE_PAGE_EMBEDDER); `npm run make-tiny-page-embedder -- FILE` writes a tiny random-weight one that proves the harness runs.',
    );

  const questions = await readQuestions(limit);
  const docs = [...new Set(questions.map((q) => q.doc))].sort();
  // --keep <dir> indexes into (and reuses) a folder outside the repo, to iterate on search alone.
  const keepAt = args.indexOf('--keep');
  const kept = keepAt === -1 ? undefined : args[keepAt + 1];
  const dir = kept ? { path: kept, cleanup: async () => undefined } : await tempDir('quire-eval-retrieval-');
  const store = await Index.open({ uri: dir.path });
  try {
    let started = performance.now();
    const indexed = await indexDocuments(store, docs, chunking);
    const indexSeconds = (performance.now() - started) / 1000;
    await store.maintenance.optimize({ cleanupOlderThan: new Date() });

    const rerankerArg = args.indexOf('--reranker');
    const modelArg = args.indexOf('--model');
    let rerankerPath = rerankerArg === -1 ? null : (args[rerankerArg + 1] ?? null);
    const rerankerLabel = rerankerPath ? 'reranker' : 'random-weight reranker (control)';
    if (!rerankerPath) {
      rerankerPath = join(dir.path, 'tiny-reranker.gguf');
      await writeTinyGguf(rerankerPath, { kind: 'reranker' });
    }
    // Page mode compares page search with plain BM25 on the same questions: no reranker needed.
    const withRerank = !args.includes('--no-rerank') && mode !== 'pages';
    // A chunk and the question fit one window of 2,048 tokens even for the tiny model's byte-sized tokens.
    const reranker = withRerank
      ? await createLlamaReranker({
          modelPath: rerankerPath,
          gpu: false,
          threads: 1,
          contextSize: 2048,
        })
      : null;
    const chat =
      modelArg === -1
        ? null
        : await createLlamaProvider({ modelPath: args[modelArg + 1]!, gpu: false, threads: 1 });
    const rewriting = `rewriting${chat ? ' (model)' : ' (keywords, sub-questions)'}`;
    const variants: Variant[] = [
      { label: 'BM25', mode: 'bm25' as const, rewrite: false, rerank: false, documentPrior: false },
      {
        label: `BM25 + ${rewriting}`,
        mode: 'bm25' as const,
        rewrite: true,
        rerank: false,
        documentPrior: false,
      },
      {
        label: 'BM25 + document prior',
        mode: 'bm25' as const,
        rewrite: false,
        rerank: false,
        documentPrior: true,
      },
      {
        label: `BM25 + document prior + ${rewriting}`,
        mode: 'bm25' as const,
        rewrite: true,
        rerank: false,
        documentPrior: true,
      },
      {
        label: `BM25 + document prior + ${rerankerLabel}`,
        mode: 'bm25' as const,
        rewrite: false,
        rerank: true,
        documentPrior: true,
      },
      {
        label: `BM25 + document prior + ${rewriting} + ${rerankerLabel}`,
        mode: 'bm25' as const,
        rewrite: true,
        rerank: true,
        documentPrior: true,
      },
    ]
      .filter((variant) => withRerank || !variant.rerank)
      .filter((variant) => mode !== 'pages' || !variant.rewrite);

    started = performance.now();
    let pageEval: PageEval | null = null;
    const embedders: EmbedderSummary[] = [];
    const rows: BenchReport['rows'] = [
      {
        scope: 'baseline: BM25 over whole pages, all docs',
        source: 'all',
        questions: 178,
        ...BASELINE,
        mrr10: null,
      },
    ];
    const sources = [...new Set(questions.map((q) => q.source))].sort();
    const perQuestion = new Map<string, Record<string, unknown>>(
      questions.map((q) => [q.id, { id: q.id, source: q.source }]),
    );
    const addRows = (label: string, ranks: Array<number | null>, msPerQuery?: number) => {
      rows.push({ ...summarise(label, 'all', ranks), ...(msPerQuery === undefined ? {} : { msPerQuery }) });
      for (const source of sources)
        rows.push(
          summarise(
            label,
            source,
            ranks.filter((_, i) => questions[i]!.source === source),
          ),
        );
    };
    try {
      const score = async (variant: Variant) => {
        const ports = storePorts(store, undefined, reranker, chat, variant.documentPrior, variant.mode);
        const ranks: Array<number | null> = [];
        const began = performance.now();
        for (const question of questions) {
          const rank = await goldRank(ports, question, variant, depth);
          ranks.push(rank);
          perQuestion.get(question.id)![variant.label] = rank;
        }
        addRows(`${variant.label}, all docs`, ranks, (performance.now() - began) / questions.length);
        process.stderr.write(`scored ${variant.label}\n`);
      };
      for (const variant of variants) await score(variant);
      for (const path of embedderPaths) {
        const embedded = await embedChunks(store, path);
        embedders.push(embedded.summary);
        for (const textMode of textModes)
          for (const documentPrior of [false, true])
            await score({
              label: `${textMode} (${embedded.summary.embedder})${documentPrior ? ' + document prior' : ''}`,
              mode: textMode,
              rewrite: false,
              rerank: false,
              documentPrior,
            });
        // The same vectors, queries embedded as passages are (no query instruction or prefix): says
        // what the model card's query prefix is worth on these questions.
        store.vectors.attach({ text: queriesAsPassages(embedded.embedder) });
        for (const textMode of textModes)
          await score({
            label: `${textMode} (${embedded.summary.embedder}, queries as passages) + document prior`,
            mode: textMode,
            rewrite: false,
            rerank: false,
            documentPrior: true,
          });
        await embedded.embedder.dispose();
      }
      const own: Array<number | null> = [];
      for (const question of questions) {
        const ports = storePorts(store, { documentIds: [documentId(question.doc)] }, null, null, false);
        own.push(await goldRank(ports, question, variants[0]!, depth));
      }
      addRows('BM25, own doc', own);
      if (mode === 'pages' && pageEmbedder) {
        pageEval = await evaluatePages(questions, docs, {
          embedderPath: pageEmbedder,
          workDir: dir.path,
          scored: PAGES_SCORED,
        });
        addRows(`pages (${pageEval.embedder}, exact MaxSim), all docs`, pageEval.ranks);
      }
    } finally {
      await reranker?.dispose();
      await chat?.dispose();
    }
    const searchSeconds = (performance.now() - started) / 1000;
    const overall = rows.find(
      (row) => row.scope === 'BM25 + document prior, all docs' && row.source === 'all',
    )!;
    return {
      name: 'eval-retrieval',
      rows,
      targets: [
        {
          what: 'page hit@5, BM25 as the product searches (document prior on), all docs',
          target: `>= ${HIT5_TARGET}`,
          measured: (overall.hit5 as number).toFixed(3),
          met: (overall.hit5 as number) >= HIT5_TARGET,
        },
        ...textTargets(rows, overall, embedders),
      ],
      details: {
        documents: docs.length,
        pages: indexed.pages,
        failed: indexed.failed,
        indexSeconds,
        searchSeconds,
        stats: await store.maintenance.stats(),
        chunking: chunking ?? DEFAULT_CHUNKING,
        modes: pageEval
          ? "BM25 and page search (exact MaxSim over the configured page embedder's vectors)"
          : embedders.length > 0
            ? `BM25, and ${textModes.join(' and ')} with each text embedder`
            : 'BM25 only: no text or page embedder was given (--embedder, --page-embedder)',
        embedders,
        ...(pageEval
          ? {
              pageSearch: {
                embedder: pageEval.embedder,
                randomWeights: pageEval.randomWeights,
                pagesEmbedded: pageEval.pages,
                failed: pageEval.failed,
                embedSeconds: pageEval.embedSeconds,
                pagesPerSecond: pageEval.pagesPerSecond,
              },
              notes: [pageFiguresCaveat(pageEval)],
            }
          : {}),
        perQuestion: [...perQuestion.values()],
      },
    };
  } finally {
    await store.dispose();
    await dir.cleanup();
  }
}

/** Run directly with tsx, or through `npm run eval -- retrieval`, which imports `run`. */
if (import.meta.url === `file://${process.argv[1]}`) {
  const report = await run(process.argv.slice(2));
  printTable(report.rows);
  if (report.targets) printTable(report.targets.map((t) => ({ ...t, met: t.met ? 'yes' : 'NO' })));
  for (const note of (report.details?.notes as string[] | undefined) ?? []) console.log(note);
  console.log(`written ${await writeReport(report)}`);
}
