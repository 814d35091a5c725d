import { describe, expect, it } from 'vitest';
import { exactMaxSim, LateInteractionIndex } from '../../src/core/index/lateInteraction';
import { Codebook } from '../../src/core/index/lateInteraction/codebook';
import { PrunedMaxSim } from '../../src/core/index/lateInteraction/prunedMaxSim';
import { ResidualCodec } from '../../src/core/index/lateInteraction/residualCodec';
import { makeSyntheticCorpus } from '../helpers/syntheticPages';

/** One page coded the way the index codes it: rows sorted by centroid, then decoded back. */
function codePage(vectors: Float32Array, count: number, d: number, codebook: Codebook, codec: ResidualCodec) {
  const assigned = new Int32Array(count);
  codebook.assign(vectors, 0, count, assigned);
  const order = Array.from({ length: count }, (_, row) => row).sort((a, b) => assigned[a]! - assigned[b]!);
  const ids = new Uint16Array(count);
  const residuals = new Uint8Array(count * codec.bytesPerVector);
  const decoded = new Float32Array(count * d);
  order.forEach((row, at) => {
    ids[at] = assigned[row]!;
    codec.encode(vectors, row, codebook.centroids, assigned[row]!, residuals, at * codec.bytesPerVector);
    codec.decode(residuals, at * codec.bytesPerVector, codebook.centroids, assigned[row]!, decoded, at);
  });
  return { ids, residuals, decoded };
}

describe('PrunedMaxSim (middle stage)', () => {
  const d = 32;
  const corpus = makeSyntheticCorpus({ dimensions: d, pages: 40, vectorsPerPage: 60, seed: 9 });
  const sample = new Float32Array(40 * 60 * d);
  corpus.pages.forEach((page, p) => sample.set(page.vectors, p * 60 * d));
  const codebook = Codebook.train(sample, 40 * 60, d, { centroids: 64, iterations: 4, seed: 3 });
  const ids = new Int32Array(40 * 60);
  codebook.assign(sample, 0, 40 * 60, ids);
  const residuals = new Float32Array(sample.length);
  for (let row = 0; row < 40 * 60; row++)
    for (let k = 0; k < d; k++)
      residuals[row * d + k] = sample[row * d + k]! - codebook.centroids[ids[row]! * d + k]!;
  const codec = ResidualCodec.train(residuals, 40 * 60, d, 4);

  it('equals exact MaxSim over the decoded rows with no pruning, and never exceeds it with pruning', () => {
    const pruned = new PrunedMaxSim(d, codebook, codec);
    let gap = 0;
    for (let p = 0; p < corpus.pages.length; p++) {
      const page = corpus.pages[p]!;
      const coded = codePage(page.vectors, page.count, d, codebook, codec);
      const query = corpus.makeQuery(8, p);
      const table = codebook.scoreQuery(query, 8);
      const exact = exactMaxSim(query, 8, coded.decoded, page.count, d);
      const all = pruned.score(query, 8, table, coded.ids, coded.residuals, 0, page.count, Infinity);
      expect(all).toBeCloseTo(exact, 4);
      const narrow = pruned.score(query, 8, table, coded.ids, coded.residuals, 0, page.count, 0.05);
      const wide = pruned.score(query, 8, table, coded.ids, coded.residuals, 0, page.count, 0.3);
      // Looking at more centroids only adds rows, and the rows are the page's own: a lower bound.
      expect(narrow).toBeLessThanOrEqual(wide + 1e-5);
      expect(wide).toBeLessThanOrEqual(exact + 1e-5);
      gap += (exact - wide) / exact;
    }
    console.log(`mean shortfall of the pruned score at margin 0.3: ${gap / corpus.pages.length}`);
    expect(gap / corpus.pages.length).toBeLessThan(0.02);
  });

  it('scores an empty page as zero', () => {
    const pruned = new PrunedMaxSim(d, codebook, codec);
    const query = corpus.makeQuery(4, 0);
    const table = codebook.scoreQuery(query, 4);
    expect(pruned.score(query, 4, table, new Uint16Array(0), new Uint8Array(0), 0, 0, 0.1)).toBe(0);
  });
});

describe('LateInteractionIndex candidate stages', () => {
  const d = 32;
  const corpus = makeSyntheticCorpus({ dimensions: d, pages: 1500, vectorsPerPage: 40, seed: 17 });
  const index = new LateInteractionIndex({ dimensions: d, poolFactor: 1, centroids: 256, candidates: 24 });
  for (const page of corpus.pages) index.upsert(page.key, page.vectors, page.count);
  const queries = Array.from({ length: 15 }, (_, i) => corpus.makeQuery(16, i * 89 + 3));

  function recallAgainstExhaustive(options: { shortlist: number; pruneMargin?: number }): number {
    let found = 0;
    for (const query of queries) {
      const truth = index.search(query, 16, 10, { candidates: Infinity }).map((hit) => hit.key);
      const keys = new Set(index.search(query, 16, 10, options).map((hit) => hit.key));
      found += truth.filter((key) => keys.has(key)).length;
    }
    return found / (queries.length * 10);
  }

  it('with the pruned middle stage recalls the exhaustive top 10 better than coarse scores alone', () => {
    const coarseOnly = recallAgainstExhaustive({ shortlist: 0 });
    const withMiddle = recallAgainstExhaustive({ shortlist: 600, pruneMargin: 0.15 });
    const unpruned = recallAgainstExhaustive({ shortlist: 600, pruneMargin: Infinity });
    console.log(`recall@10 vs exhaustive: coarse ${coarseOnly}, pruned ${withMiddle}, unpruned ${unpruned}`);
    expect(unpruned).toBeGreaterThanOrEqual(0.95);
    expect(withMiddle).toBeGreaterThanOrEqual(coarseOnly);
    expect(withMiddle).toBeGreaterThanOrEqual(0.8);
  });

  it('scores only pages in scope, exactly, whatever the candidate settings', () => {
    const allowed = new Set(corpus.pages.filter((_, p) => p % 7 === 0).map((page) => page.key));
    const allow = (key: string) => allowed.has(key);
    for (const query of queries.slice(0, 3)) {
      const scoped = index.search(query, 16, 10, { allow, shortlist: 50, candidates: 10 });
      expect(scoped).toHaveLength(10);
      for (const hit of scoped) expect(allowed.has(hit.key)).toBe(true);
      const exhaustive = index
        .search(query, 16, index.size, { candidates: Infinity })
        .filter((hit) => allowed.has(hit.key))
        .slice(0, 10);
      expect(scoped.map((hit) => hit.key)).toEqual(exhaustive.map((hit) => hit.key));
    }
  });
});
