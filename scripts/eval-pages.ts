/**
 * The page-image half of `npm run eval -- retrieval --mode pages`: every page of the questions'
 * documents is drawn, embedded by the configured ONNX page embedder (in its own host process, as in
 * the product) and searched by exact MaxSim over the page vectors kept in memory, so the figures say
 * what the embedder finds, apart from how any index compresses its vectors.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { PageImageStore } from '../src/core/documents/render/pageImageStore';
import { renderPdfPages } from '../src/core/documents/render/renderPdfPages';
import { readOnnxMetadata } from '../src/core/models/onnx/onnxMetadata';
import { OnnxPageEmbedder } from '../src/core/models/onnx/onnxPageEmbedder';
import { EMBEDDED_FILES_KEY } from '../src/core/models/onnx/pageEmbedderFiles';
import { sharedDir } from '../test/helpers/shared';

/** The page embedder's own tile size: drawing larger only costs time. */
const LONG_EDGE = 512;

export interface PageQuestion {
  question: string;
  doc: string;
  gold_pages: number[];
}

interface EmbeddedPage {
  doc: string;
  page: number;
  vectors: Float32Array[];
}

export interface PageEval {
  /** 1-based rank of the first gold page per question, or null when not in the first `scored`. */
  ranks: Array<number | null>;
  embedder: string;
  /** The project's tiny random-weight test model: its figures prove the harness runs, nothing more. */
  randomWeights: boolean;
  pages: number;
  failed: string[];
  embedSeconds: number;
  pagesPerSecond: number;
}

function normalized(vector: Float32Array): Float32Array {
  let norm = 0;
  for (const value of vector) norm += value * value;
  const scale = norm > 0 ? 1 / Math.sqrt(norm) : 0;
  return vector.map((value) => value * scale);
}

/** Late-interaction score: for each query vector, its best cosine against the page's vectors, summed. */
function maxSim(query: Float32Array[], page: Float32Array[]): number {
  let total = 0;
  for (const q of query) {
    let best = -Infinity;
    for (const p of page) {
      let dot = 0;
      for (let i = 0; i < q.length; i++) dot += q[i]! * p[i]!;
      if (dot > best) best = dot;
    }
    total += best === -Infinity ? 0 : best;
  }
  return total;
}

export async function evaluatePages(
  questions: PageQuestion[],
  docs: string[],
  options: { embedderPath: string; workDir: string; scored: number },
): Promise<PageEval> {
  const randomWeights = (await readOnnxMetadata(options.embedderPath)).has(EMBEDDED_FILES_KEY);
  const embedder = await OnnxPageEmbedder.create({
    modelPath: options.embedderPath,
    accelerator: false,
    threads: 1,
  });
  const store = new PageImageStore(join(options.workDir, 'page-images'));
  const pages: EmbeddedPage[] = [];
  const failed: string[] = [];
  const started = performance.now();
  try {
    for (const [i, doc] of docs.entries()) {
      const path = join(sharedDir, doc);
      try {
        const contentHash = createHash('sha256')
          .update(await readFile(path))
          .digest('hex');
        const refs = await renderPdfPages(path, { contentHash, longEdge: LONG_EDGE }, store);
        for (const ref of refs) {
          const vectors = await embedder.embedPage({
            segments: [],
            loadImage: async () => new Uint8Array(await readFile(store.absolutePath(ref.full))),
          });
          if (vectors) pages.push({ doc, page: ref.page, vectors: vectors.map(normalized) });
        }
      } catch (error) {
        failed.push(`${doc}: ${error instanceof Error ? error.message : String(error)}`);
      }
      process.stderr.write(`\rembedded ${i + 1}/${docs.length} documents, ${pages.length} pages`);
    }
    process.stderr.write('\n');
    const embedSeconds = (performance.now() - started) / 1000;
    const ranks: Array<number | null> = [];
    for (const question of questions) {
      const query = (await embedder.embedQuery(question.question)).map(normalized);
      const ranked = pages
        .map((page) => ({ page, score: maxSim(query, page.vectors) }))
        .sort((a, b) => b.score - a.score)
        .slice(0, options.scored);
      const at = ranked.findIndex(
        ({ page }) => page.doc === question.doc && question.gold_pages.includes(page.page),
      );
      ranks.push(at === -1 ? null : at + 1);
    }
    return {
      ranks,
      embedder: basename(options.embedderPath),
      randomWeights,
      pages: pages.length,
      failed,
      embedSeconds,
      pagesPerSecond: pages.length / Math.max(embedSeconds, 1e-9),
    };
  } finally {
    await embedder.dispose();
  }
}

/** The sentence printed under the table: what the page figures are worth. */
export function pageFiguresCaveat(result: PageEval): string {
  const rate = `${result.pages} pages drawn and embedded at ${result.pagesPerSecond.toFixed(2)} pages/s on the CPU${result.failed.length > 0 ? `; ${result.failed.length} documents failed` : ''}. `;
  return (
    rate +
    (result.randomWeights
      ? `Page rows come from ${result.embedder}, the project's tiny random-weight page embedder: they show that the harness runs end to end, not how well page search works. Real figures need real weights (ColModernVBERT: \`quire models setup\`, then --page-embedder with its model.onnx).`
      : `Page rows come from ${result.embedder} (exact MaxSim over its page vectors, in memory).`)
  );
}
