import { createBestMatch, type BestMatch } from './bestMatch';
import { CandidateStage, type CandidateSettings } from './candidateStage';
import { Codebook } from './codebook';
import { createCodedPageScorer, type CodedPageScorer } from './codedPageScorer';
import { CompactPageStore } from './compactPageStore';
import { PageStore } from './pageStore';
import { PrunedMaxSim } from './prunedMaxSim';
import { ResidualCodec, type ResidualBits } from './residualCodec';
import { SeededRandom } from '../../common/seededRandom';
import { poolPage } from './tokenPooling';
import { TopK } from './topK';

export interface LateInteractionIndexOptions {
  /** Length of every vector (128 for ColPali / ColQwen). */
  dimensions: number;
  /**
   * Pages re-scored from their decoded vectors per search, picked by the cheap centroid stage.
   * More raises recall and latency linearly. Default 128.
   */
  candidates?: number;
  /**
   * Pages the coarse stage passes to the pruned middle stage (PrunedMaxSim), which picks the
   * `candidates` re-scored exactly. At most `candidates` turns the middle stage off. Default 0
   * (off): on the synthetic 850-vector pages of `npm run bench -- pages` it prunes few rows, so a
   * shortlist of 512 to 1024 costs seconds per search in JavaScript for +0.06 recall@10.
   */
  shortlist?: number;
  /** Cosine margin below a page's best centroid within which the middle stage still looks. Default 0.15. */
  pruneMargin?: number;
  /**
   * Per query vector, the nearest centroids whose inverted lists the probe stage follows, so coarse
   * scoring sees `probePages` pages instead of all. 0 scores every page coarsely. Default PROBE_CENTROIDS.
   */
  probeCentroids?: number;
  /** Pages the probe stage hands to coarse scoring. Default PROBE_PAGES. */
  probePages?: number;
  /**
   * Centroids in the codebook (at most 60,000: ids are 16-bit). Default: 16 x the square root of
   * the vectors the codebook is learnt from, between 256 and 4096. With 1024 on 850-vector pages the centroid stage
   * lost a tenth of the true top 10 from its best 128 at 2k pages; with 4096 its best 64 held all.
   */
  centroids?: number;
  /** Below this many pages vectors are kept as given and every search is exact. Default 512. */
  exactUpToPages?: number;
  /** Bits per dimension of a coded vector's residual: 2 (smaller) or 4 (closer). Default 4. */
  residualBits?: ResidualBits;
  /** Token pooling: a page keeps about 1 / poolFactor of its vectors (1 keeps them all). Default 2. */
  poolFactor?: number;
  /** Vectors sampled to learn the codebook. Default 32 per centroid (or every vector, if fewer). */
  trainingSample?: number;
  /** k-means iterations when learning the codebook. Default 8. */
  trainingIterations?: number;
  /** Seed for sampling and k-means, so the same inputs give the same index. Default 1. */
  seed?: number;
}

export interface PageHit {
  key: string;
  /** Sum over query vectors of the best cosine against the page's (stored) vectors; higher is better. */
  score: number;
}

interface Coding {
  codebook: Codebook;
  codec: ResidualCodec;
  pruned: PrunedMaxSim;
  scorer: CodedPageScorer;
  candidates: CandidateStage;
}

export const PROBE_CENTROIDS = 16;
export const PROBE_PAGES = 1024;

/**
 * In-memory MaxSim search over pages that each carry many vectors. Small indexes keep vectors as
 * given and search exactly. Past `exactUpToPages` a codebook and residual codec are learnt once and
 * every page is stored as a centroid id plus a few bits per dimension per vector. A search then
 * picks candidates (CandidateStage: the pages listed under the query's nearest centroids, scored
 * coarsely with each vector standing in for its centroid) and re-scores the best `candidates`
 * pages exactly over their decoded vectors.
 */
export class LateInteractionIndex {
  private readonly dimensions: number;
  /** `centroids` and `trainingSample` are 0 until chosen from the pages the codebook is learnt from. */
  private readonly settings: Required<Omit<LateInteractionIndexOptions, 'dimensions'>>;
  private exact: PageStore;
  private coded: CompactPageStore | null = null;
  private coding: Coding | null = null;
  private readonly scorer: BestMatch;
  private readonly helper: BestMatch;
  /** Vectors each page came with, before pooling. */
  private readonly givenCounts = new Map<string, number>();

  constructor(options: LateInteractionIndexOptions) {
    const { dimensions } = options;
    if (!Number.isInteger(dimensions) || dimensions <= 0) {
      throw new Error(`dimensions must be a positive integer, got ${dimensions}`);
    }
    this.dimensions = dimensions;
    const centroids = Math.max(0, Math.min(options.centroids ?? 0, 60_000));
    this.settings = {
      candidates: options.candidates ?? 128,
      shortlist: options.shortlist ?? 0,
      pruneMargin: options.pruneMargin ?? 0.15,
      probeCentroids: options.probeCentroids ?? PROBE_CENTROIDS,
      probePages: options.probePages ?? PROBE_PAGES,
      centroids,
      exactUpToPages: options.exactUpToPages ?? 512,
      residualBits: options.residualBits ?? 4,
      poolFactor: Math.max(1, options.poolFactor ?? 2),
      trainingSample: options.trainingSample ?? 0,
      trainingIterations: options.trainingIterations ?? 8,
      seed: options.seed ?? 1,
    };
    this.exact = new PageStore(dimensions);
    this.scorer = createBestMatch(dimensions);
    this.helper = createBestMatch(dimensions);
  }

  get size(): number {
    return this.exact.size + (this.coded?.size ?? 0);
  }

  /** Adds the page, or replaces every vector of a page already stored under `key`. */
  upsert(key: string, vectors: Float32Array, count: number): void {
    if (!Number.isInteger(count) || count < 0)
      throw new Error(`count must be a non-negative integer, got ${count}`);
    if (vectors.length < count * this.dimensions)
      throw new Error(
        `Expected ${count * this.dimensions} values for ${count} vectors, got ${vectors.length}`,
      );
    this.delete(key);
    this.givenCounts.set(key, count);
    const pooled = poolPage(this.helper, vectors, count, this.dimensions, this.settings.poolFactor);
    if (this.coding && this.coded) this.encode(key, pooled.vectors, pooled.count, this.coding, this.coded);
    else this.exact.append(key, pooled.vectors, pooled.count);
    if (!this.coding && this.exact.size > this.settings.exactUpToPages) this.learnCoding();
  }

  delete(key: string): void {
    this.givenCounts.delete(key);
    this.exact.remove(key);
    if (this.coded?.remove(key)) this.compactIfWasteful();
  }

  /**
   * The best `k` pages. `options.candidates` overrides how many coded pages are re-scored (Infinity:
   * all); with `options.allow` (a search scope) only admitted pages are scored, each one exactly, so a
   * scoped page never loses to pages outside the scope.
   */
  search(
    query: Float32Array,
    queryCount: number,
    k: number,
    options: Partial<CandidateSettings> & {
      candidates?: number;
      allow?: (key: string) => boolean;
    } = {},
  ): PageHit[] {
    if (k <= 0 || queryCount <= 0 || this.size === 0) return [];
    if (query.length < queryCount * this.dimensions) {
      throw new Error(`Expected ${queryCount * this.dimensions} query values, got ${query.length}`);
    }
    const { allow } = options;
    this.scorer.setLeft(query, queryCount);
    const best = new TopK(Math.min(k, this.size));
    for (let slot = 0; slot < this.exact.slotCount; slot++) {
      if (!this.exact.isLive(slot)) continue;
      if (allow && !allow(this.exact.keyOf(slot))) continue;
      const score = this.scorer.sumOfBest(
        this.exact.data,
        this.exact.firstRow(slot),
        this.exact.rowCount(slot),
      );
      best.offer(-1 - slot, score);
    }
    const coded = this.coded;
    const coding = this.coding;
    if (coded && coding && coded.size > 0) {
      const slots = allow
        ? this.admittedSlots(coded, allow)
        : coding.candidates.select(
            query,
            queryCount,
            coding.codebook,
            coding.pruned,
            coded,
            Math.min(coded.size, Math.max(k, options.candidates ?? this.settings.candidates)),
            { ...this.settings, ...definedOnly(options) },
          );
      coding.scorer.setQuery(query, queryCount);
      for (const slot of slots) {
        const score = coding.scorer.score(
          coded.ids,
          coded.residuals,
          coded.firstRow(slot),
          coded.rowCount(slot),
        );
        best.offer(slot, score);
      }
    }
    return best.sorted().map(({ id, score }) => ({
      key: id < 0 ? this.exact.keyOf(-1 - id) : coded!.keyOf(id),
      score,
    }));
  }

  /**
   * The keys of the `count` coded pages the centroid stage ranks best, best first: what the
   * candidate stage hands on before any residual is decoded (benchmarks measure its recall).
   */
  centroidRanking(query: Float32Array, queryCount: number, count: number): string[] {
    const { coded, coding } = this;
    if (!coded || !coding || count <= 0 || queryCount <= 0) return [];
    return coding.candidates
      .select(query, queryCount, coding.codebook, coding.pruned, coded, Math.min(count, coded.size), {
        ...this.settings,
        shortlist: 0,
      })
      .map((slot) => coded.keyOf(slot));
  }

  /** Every stored page's key and the vectors it came with (before pooling). */
  entries(): Iterable<[string, number]> {
    return this.givenCounts.entries();
  }

  /** Facts for benchmarks and diagnostics. */
  stats(): {
    pages: number;
    storedVectors: number;
    codebookTrainings: number;
    bytes: number;
    codeBytes: number;
  } {
    const coded = this.coded;
    const codeBytes = coded?.bytes ?? 0;
    const listBytes = this.coding?.candidates.bytes ?? 0;
    const codingBytes = this.coding
      ? this.coding.codebook.centroids.byteLength +
        this.coding.codec.cutoffs.byteLength +
        this.coding.codec.values.byteLength
      : 0;
    return {
      pages: this.size,
      storedVectors: this.exact.liveRows + (coded?.liveRows ?? 0),
      codebookTrainings: this.coding ? 1 : 0,
      codeBytes: codeBytes + codingBytes,
      bytes: this.exact.data.byteLength + codeBytes + listBytes + codingBytes,
    };
  }

  /** Every live coded slot whose page the scope admits. */
  private admittedSlots(coded: CompactPageStore, allow: (key: string) => boolean): number[] {
    const slots: number[] = [];
    for (let slot = 0; slot < coded.slotCount; slot++) {
      if (coded.isLive(slot) && allow(coded.keyOf(slot))) slots.push(slot);
    }
    return slots;
  }

  private encode(
    key: string,
    vectors: Float32Array,
    count: number,
    coding: Coding,
    coded: CompactPageStore,
  ): void {
    const ids = new Int32Array(count);
    coding.codebook.assign(vectors, 0, count, ids);
    // Rows sorted by centroid, so the middle stage finds a centroid's rows as one run.
    const order = Array.from({ length: count }, (_, row) => row).sort((a, b) => ids[a]! - ids[b]!);
    const slot = coded.append(key, count);
    const first = coded.firstRow(slot);
    const width = coded.residualBytes;
    order.forEach((row, at) => {
      coded.ids[first + at] = ids[row]!;
      coding.codec.encode(
        vectors,
        row,
        coding.codebook.centroids,
        ids[row]!,
        coded.residuals,
        (first + at) * width,
      );
    });
    coding.candidates.append(ids);
  }

  /** Learns the codebook and residual buckets from the pages so far, then codes every one of them. */
  private learnCoding(): void {
    const d = this.dimensions;
    const settings = this.settings;
    // PLAID's rule of thumb, 16 x sqrt(vectors); more would slow coding and the table per query.
    settings.centroids ||= Math.max(256, Math.min(4096, Math.floor(16 * Math.sqrt(this.exact.liveRows))));
    settings.trainingSample ||= settings.centroids * 32;
    const [sample, rows] = this.trainingSample();
    const codebook = Codebook.train(sample, rows, d, {
      centroids: settings.centroids,
      iterations: this.settings.trainingIterations,
      seed: this.settings.seed,
    });
    const ids = new Int32Array(rows);
    codebook.assign(sample, 0, rows, ids);
    const residuals = new Float32Array(rows * d);
    for (let row = 0; row < rows; row++) {
      for (let k = 0; k < d; k++)
        residuals[row * d + k] = sample[row * d + k]! - codebook.centroids[ids[row]! * d + k]!;
    }
    const codec = ResidualCodec.train(residuals, rows, d, this.settings.residualBits);
    const coding = {
      codebook,
      codec,
      pruned: new PrunedMaxSim(d, codebook, codec),
      scorer: createCodedPageScorer(codebook.centroids, codec),
      candidates: new CandidateStage(codebook.size),
    };
    const coded = new CompactPageStore(coding.codec.bytesPerVector);
    const pages = this.exact;
    for (let slot = 0; slot < pages.slotCount; slot++) {
      if (!pages.isLive(slot)) continue;
      const first = pages.firstRow(slot);
      const count = pages.rowCount(slot);
      this.encode(pages.keyOf(slot), pages.data.slice(first * d, (first + count) * d), count, coding, coded);
    }
    this.coding = coding;
    this.coded = coded;
    this.exact = new PageStore(d);
  }

  private trainingSample(): [Float32Array, number] {
    const d = this.dimensions;
    const random = new SeededRandom(this.settings.seed * 7919);
    const pages = this.exact;
    const slots: number[] = [];
    for (let slot = 0; slot < pages.slotCount; slot++)
      if (pages.isLive(slot) && pages.rowCount(slot) > 0) slots.push(slot);
    const rows = Math.min(this.settings.trainingSample, pages.liveRows);
    const sample = new Float32Array(rows * d);
    for (let i = 0; i < rows; i++) {
      const slot = slots[random.int(slots.length)]!;
      const row = pages.firstRow(slot) + random.int(pages.rowCount(slot));
      sample.set(pages.data.subarray(row * d, (row + 1) * d), i * d);
    }
    return [sample, rows];
  }

  private compactIfWasteful(): void {
    const coded = this.coded;
    // Holes cost memory, not correctness: squeeze them out only once they are a sizeable share.
    if (!coded || coded.wastedRows <= 4096 || coded.wastedRows <= coded.liveRows / 2) return;
    const remap = coded.compact();
    const oldSlotOf = new Int32Array(coded.slotCount);
    remap.forEach((to, from) => {
      if (to >= 0) oldSlotOf[to] = from;
    });
    this.coding?.candidates.renumber(coded.slotCount, oldSlotOf);
  }
}

/** The options a caller set, so an `undefined` never overrides a default. */
function definedOnly<T extends object>(options: T): Partial<T> {
  return Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined)) as Partial<T>;
}
