/**
 * Synthetic multi-vector pages shaped like pooled ColPali/ColQwen output, for tests and benchmarks.
 * Real page embeddings are clustered and anisotropic: many patches are near-identical background,
 * the rest spread around the page's subjects. Queries mix filler tokens (which match every page
 * about equally) with terms from one page's subjects, so neighbouring pages on the same subject
 * score close together and recall against exact MaxSim is a real test.
 *
 * Structure, explicitly: 64 topics x 32 terms = 2,048 term clusters, 12 background clusters and 10
 * filler clusters; a page uses 12-31 terms of 1-3 topics and 15-50% background. Each vector is its
 * cluster centre plus a shared offset plus Gaussian noise of norm about 0.9 (terms) or 0.6
 * (background) spread over every dimension unless `noiseDimensions` confines it, so by default the
 * noise is full-rank: the hardest case for a codec. Scores of neighbouring pages are very close (the
 * 10th and 11th exact scores differ by about 0.2%), so small coding errors reorder the top 10.
 */
import { SeededRandom } from '../../src/core/common/seededRandom';
import { normalizeRows } from '../../src/core/index/lateInteraction/vectorMath';

export interface SyntheticCorpusOptions {
  dimensions: number;
  pages: number;
  vectorsPerPage: number;
  topics?: number;
  termsPerTopic?: number;
  /**
   * Dimensions the noise around each cluster centre spans (random orthonormal-ish directions); all
   * of them by default. Fewer makes the vectors lie near a low-dimensional surface.
   */
  noiseDimensions?: number;
  seed?: number;
}

export interface SyntheticPage {
  key: string;
  vectors: Float32Array;
  count: number;
}

export interface SyntheticCorpus {
  /** Every page, made on first use (large corpora should use `pageAt` instead). */
  readonly pages: SyntheticPage[];
  readonly pageCount: number;
  /** Page `index`, made afresh from its own seed: the same vectors on every call. */
  pageAt(index: number): SyntheticPage;
  /** Query vectors about the subjects of a page chosen with `sourcePageIndex`. */
  makeQuery(queryCount: number, sourcePageIndex: number): Float32Array;
}

const backgroundPatterns = 12;
const fillerTokens = 10;

export function makeSyntheticCorpus(options: SyntheticCorpusOptions): SyntheticCorpus {
  const d = options.dimensions;
  const topicCount = options.topics ?? 64;
  const termsPerTopic = options.termsPerTopic ?? 32;
  const random = new SeededRandom(options.seed ?? 1);

  // One direction every vector leans towards: real embedding spaces are far from isotropic.
  const commonDirection = randomUnitRows(random, 1, d);
  const noiseRank = Math.min(d, options.noiseDimensions ?? d);
  const noiseBasis = noiseRank < d ? randomUnitRows(random, noiseRank, d) : null;
  const around = (
    centre: Float32Array,
    centreRow: number,
    spread: number,
    out: Float32Array,
    outRow: number,
    from: SeededRandom = random,
  ) => {
    if (noiseBasis) {
      for (let k = 0; k < d; k++)
        out[outRow * d + k] = centre[centreRow * d + k]! + 0.35 * commonDirection[k]!;
      const scale = spread / Math.sqrt(noiseRank);
      for (let j = 0; j < noiseRank; j++) {
        const g = scale * from.gaussian();
        for (let k = 0; k < d; k++) out[outRow * d + k]! += g * noiseBasis[j * d + k]!;
      }
    } else {
      for (let k = 0; k < d; k++) {
        out[outRow * d + k] =
          centre[centreRow * d + k]! + 0.35 * commonDirection[k]! + (spread * from.gaussian()) / Math.sqrt(d);
      }
    }
    normalizeRows(out, d, 1, outRow);
  };

  const topicCentres = randomUnitRows(random, topicCount, d);
  const terms = new Float32Array(topicCount * termsPerTopic * d);
  for (let t = 0; t < topicCount; t++) {
    for (let j = 0; j < termsPerTopic; j++) around(topicCentres, t, 1.1, terms, t * termsPerTopic + j);
  }
  const background = new Float32Array(backgroundPatterns * d);
  const backgroundSeeds = randomUnitRows(random, backgroundPatterns, d);
  for (let b = 0; b < backgroundPatterns; b++) around(backgroundSeeds, b, 0.5, background, b);
  const filler = new Float32Array(fillerTokens * d);
  const fillerSeeds = randomUnitRows(random, fillerTokens, d);
  for (let f = 0; f < fillerTokens; f++) around(fillerSeeds, f, 0.5, filler, f);

  // Popular subjects recur across many pages (Zipf-like), as in a real library.
  const topicWeights = Array.from({ length: topicCount }, (_, t) => 1 / (t + 1) ** 0.7);
  const weightTotal = topicWeights.reduce((a, b) => a + b, 0);
  const pickTopic = (from: SeededRandom) => {
    let r = from.next() * weightTotal;
    for (let t = 0; t < topicCount; t++) {
      r -= topicWeights[t]!;
      if (r <= 0) return t;
    }
    return topicCount - 1;
  };

  // Each page draws from its own generator, so any page can be remade without keeping it.
  const seed = options.seed ?? 1;
  const plans = Array.from({ length: options.pages }, (_, p) => {
    const local = new SeededRandom(seed * 1_000_003 + p * 7_919 + 1);
    const topics = Array.from({ length: 1 + local.int(3) }, () => pickTopic(local));
    const vocabulary = Array.from({ length: 12 + local.int(20) }, () => {
      const topic = topics[local.int(topics.length)]!;
      return topic * termsPerTopic + local.int(termsPerTopic);
    });
    return { vocabulary, backgroundShare: 0.15 + 0.35 * local.next() };
  });
  const vocabularies = plans.map((plan) => plan.vocabulary);
  const pageAt = (p: number): SyntheticPage => {
    const plan = plans[p]!;
    const local = new SeededRandom(seed * 2_000_003 + p * 104_729 + 7);
    const vectors = new Float32Array(options.vectorsPerPage * d);
    for (let v = 0; v < options.vectorsPerPage; v++) {
      if (local.next() < plan.backgroundShare)
        around(background, local.int(backgroundPatterns), 0.6, vectors, v, local);
      else around(terms, plan.vocabulary[local.int(plan.vocabulary.length)]!, 0.9, vectors, v, local);
    }
    return { key: `page-${p}`, vectors, count: options.vectorsPerPage };
  };
  let made: SyntheticPage[] | null = null;

  const makeQuery = (queryCount: number, sourcePageIndex: number) => {
    const vocabulary = vocabularies[sourcePageIndex % vocabularies.length]!;
    const query = new Float32Array(queryCount * d);
    for (let q = 0; q < queryCount; q++) {
      const roll = random.next();
      if (roll < 0.3) {
        around(filler, random.int(fillerTokens), 0.8, query, q);
      } else if (roll < 0.8) {
        around(terms, vocabulary[random.int(vocabulary.length)]!, 1.0, query, q);
      } else {
        // A related word the page may not contain: another term of one of its subjects.
        const topic = Math.floor(vocabulary[random.int(vocabulary.length)]! / termsPerTopic);
        around(terms, topic * termsPerTopic + random.int(termsPerTopic), 1.0, query, q);
      }
    }
    return query;
  };

  return {
    get pages() {
      made ??= Array.from({ length: options.pages }, (_, p) => pageAt(p));
      return made;
    },
    pageCount: options.pages,
    pageAt,
    makeQuery,
  };
}

function randomUnitRows(random: SeededRandom, rows: number, d: number): Float32Array {
  const out = new Float32Array(rows * d);
  for (let i = 0; i < out.length; i++) out[i] = random.gaussian();
  normalizeRows(out, d, rows);
  return out;
}
