import { createBestMatch, type BestMatch } from './bestMatch';
import { CentroidLists } from './centroidLists';
import { Codebook } from './codebook';
import { createCoarseScorer, type CoarseScorer } from './coarseScores';
import { PageStore } from './pageStore';
import { SeededRandom } from '../../common/seededRandom';
import { TopK } from './topK';

export interface LateInteractionIndexOptions {
  /** Length of every vector (128 for ColPali / ColQwen). */
  dimensions: number;
  /**
   * Pages re-scored exactly per search, picked by the cheap centroid stage. More raises recall and
   * latency linearly. Default 256.
   */
  candidates?: number;
  /**
   * Centroids in the codebook that drives the candidate stage (at most 60,000: ids are 16-bit).
   * More centroids sharpen the estimate and cost more per upsert. Default 1024.
   */
  centroids?: number;
  /** Below this many pages every search is exact and no codebook is kept. Default 512. */
  exactUpToPages?: number;
  /** The codebook is relearnt (and every page re-coded) when the stored vectors grow by this factor. Default 4. */
  retrainGrowth?: number;
  /** Vectors sampled to learn the codebook. Default 32 per centroid. */
  trainingSample?: number;
  /** k-means iterations when learning the codebook. Default 8. */
  trainingIterations?: number;
  /** Seed for sampling and k-means, so the same inputs give the same index. Default 1. */
  seed?: number;
}

export interface PageHit {
  key: string;
  /** Sum over query vectors of the best cosine against the page's vectors; higher is better. */
  score: number;
}

/**
 * In-memory MaxSim search over pages that each carry many vectors. A search scores every page
 * coarsely (each page vector stands in for its nearest codebook centroid, so a page costs a few
 * table look-ups per query vector), then scores the best `candidates` pages exactly.
 */
export class LateInteractionIndex {
  private readonly dimensions: number;
  private readonly settings: Required<Omit<LateInteractionIndexOptions, 'dimensions'>>;
  private readonly store: PageStore;
  private readonly scorer: BestMatch;
  private readonly coarse: CoarseScorer;
  private codebook: Codebook | null = null;
  private rowsAtTraining = 0;
  private trainings = 0;
  /** Per slot: the distinct centroids its vectors fall into (none while there is no codebook). */
  private readonly slotCentroids = new CentroidLists();

  constructor(options: LateInteractionIndexOptions) {
    const { dimensions } = options;
    if (!Number.isInteger(dimensions) || dimensions <= 0) {
      throw new Error(`dimensions must be a positive integer, got ${dimensions}`);
    }
    this.dimensions = dimensions;
    const centroids = Math.max(1, Math.min(options.centroids ?? 1024, 60_000));
    this.settings = {
      candidates: options.candidates ?? 256,
      centroids,
      exactUpToPages: options.exactUpToPages ?? 512,
      retrainGrowth: options.retrainGrowth ?? 4,
      trainingSample: options.trainingSample ?? centroids * 32,
      trainingIterations: options.trainingIterations ?? 8,
      seed: options.seed ?? 1,
    };
    this.store = new PageStore(dimensions);
    this.scorer = createBestMatch(dimensions);
    this.coarse = createCoarseScorer();
  }

  get size(): number {
    return this.store.size;
  }

  /** Adds the page, or replaces every vector of a page already stored under `key`. */
  upsert(key: string, vectors: Float32Array, count: number): void {
    if (!Number.isInteger(count) || count < 0)
      throw new Error(`count must be a non-negative integer, got ${count}`);
    this.store.remove(key);
    const slot = this.store.append(key, vectors, count);
    this.slotCentroids.append(this.codebook ? this.distinctCentroids(slot, this.codebook) : []);
    this.maintainCodebook();
    this.compactIfWasteful();
  }

  delete(key: string): void {
    this.store.remove(key);
    this.compactIfWasteful();
  }

  search(query: Float32Array, queryCount: number, k: number, allow?: (key: string) => boolean): PageHit[] {
    if (k <= 0 || queryCount <= 0 || this.store.size === 0) return [];
    if (query.length < queryCount * this.dimensions) {
      throw new Error(`Expected ${queryCount * this.dimensions} query values, got ${query.length}`);
    }
    this.scorer.setLeft(query, queryCount);
    const keep = Math.min(k, this.store.size);
    // A scope scores every page it admits exactly: a scoped page never loses to pages outside it.
    const candidates = allow
      ? [...this.liveSlots()].filter((slot) => allow(this.store.keyOf(slot)))
      : this.codebook && this.store.size > Math.max(this.settings.candidates, keep)
        ? this.coarseCandidates(query, queryCount, this.codebook, Math.max(this.settings.candidates, keep))
        : this.liveSlots();
    const best = new TopK(keep);
    const data = this.store.data;
    for (const slot of candidates) {
      best.offer(slot, this.scorer.sumOfBest(data, this.store.firstRow(slot), this.store.rowCount(slot)));
    }
    return best.sorted().map(({ id, score }) => ({ key: this.store.keyOf(id), score }));
  }

  /** Every stored page's key and vector count. */
  *entries(): Iterable<[string, number]> {
    for (const slot of this.liveSlots()) yield [this.store.keyOf(slot), this.store.rowCount(slot)];
  }

  /** Facts for benchmarks and diagnostics. */
  stats(): {
    pages: number;
    storedVectors: number;
    wastedVectors: number;
    codebookTrainings: number;
    bytes: number;
  } {
    const codeBytes = this.slotCentroids.flatCodes.byteLength + this.slotCentroids.starts.byteLength;
    return {
      pages: this.store.size,
      storedVectors: this.store.liveRows,
      wastedVectors: this.store.wastedRows,
      codebookTrainings: this.trainings,
      bytes: this.store.data.byteLength + codeBytes + (this.codebook?.centroids.byteLength ?? 0),
    };
  }

  private *liveSlots(): Iterable<number> {
    for (let slot = 0; slot < this.store.slotCount; slot++) if (this.store.isLive(slot)) yield slot;
  }

  /** The `count` live slots with the best coarse (centroid-level) estimate of MaxSim. */
  private coarseCandidates(
    query: Float32Array,
    queryCount: number,
    codebook: Codebook,
    count: number,
  ): number[] {
    const lists = this.slotCentroids;
    const estimates = this.coarse.score(
      codebook.scoreQuery(query, queryCount),
      codebook.size,
      queryCount,
      lists.flatCodes,
      lists.starts,
      lists.slotCount,
    );
    const top = new TopK(count);
    for (let slot = 0; slot < lists.slotCount; slot++) {
      if (!this.store.isLive(slot)) continue;
      // A page with no vectors has no best match: its exact MaxSim is 0.
      top.offer(slot, this.store.rowCount(slot) === 0 ? 0 : estimates[slot]!);
    }
    return top.sorted().map(({ id }) => id);
  }

  private distinctCentroids(slot: number, codebook: Codebook): number[] {
    const count = this.store.rowCount(slot);
    const codes = new Int32Array(count);
    codebook.assign(this.store.data, this.store.firstRow(slot), count, codes);
    return [...new Set(codes)];
  }

  private maintainCodebook(): void {
    const rows = this.store.liveRows;
    const due = this.codebook
      ? rows >= this.rowsAtTraining * this.settings.retrainGrowth
      : this.store.size > this.settings.exactUpToPages;
    if (!due) return;
    const codebook = Codebook.train(...this.trainingSample(), this.dimensions, {
      centroids: this.settings.centroids,
      iterations: this.settings.trainingIterations,
      seed: this.settings.seed + this.trainings,
    });
    this.slotCentroids.rebuild(this.store.slotCount, (slot) =>
      this.store.isLive(slot) ? this.distinctCentroids(slot, codebook) : [],
    );
    this.codebook = codebook;
    this.rowsAtTraining = rows;
    this.trainings++;
  }

  private trainingSample(): [Float32Array, number] {
    const d = this.dimensions;
    const random = new SeededRandom(this.settings.seed * 7919 + this.trainings);
    const slots = [...this.liveSlots()].filter((slot) => this.store.rowCount(slot) > 0);
    const rows = Math.min(this.settings.trainingSample, this.store.liveRows);
    const sample = new Float32Array(rows * d);
    const data = this.store.data;
    for (let i = 0; i < rows; i++) {
      const slot = slots[random.int(slots.length)]!;
      const row = this.store.firstRow(slot) + random.int(this.store.rowCount(slot));
      sample.set(data.subarray(row * d, (row + 1) * d), i * d);
    }
    return [sample, rows];
  }

  private compactIfWasteful(): void {
    // Holes cost memory, not correctness: squeeze them out only once they are a sizeable share.
    if (this.store.wastedRows <= 4096 || this.store.wastedRows <= this.store.liveRows / 2) return;
    const remap = this.store.compact();
    const oldSlotOf = new Int32Array(this.store.slotCount);
    remap.forEach((to, from) => {
      if (to >= 0) oldSlotOf[to] = from;
    });
    this.slotCentroids.rebuild(this.store.slotCount, (slot) => this.slotCentroids.idsOf(oldSlotOf[slot]!));
  }
}
