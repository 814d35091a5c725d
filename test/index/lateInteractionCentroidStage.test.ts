import { describe, expect, it } from 'vitest';
import { exactMaxSim, LateInteractionIndex } from '../../src/core/index/lateInteraction';
import { makeSyntheticCorpus } from '../../src/core/index/lateInteraction/syntheticPages';

/**
 * The centroid stage (every page scored by MaxSim of the query against its vectors' centroids) is
 * where the true top 10 gets lost before anything is decoded: its best few dozen must hold the
 * exact top 10 over the vectors as given, or no later stage can bring them back.
 */
describe('LateInteractionIndex centroid stage', () => {
  const d = 64;
  const queryCount = 24;
  const corpus = makeSyntheticCorpus({ dimensions: d, pages: 1500, vectorsPerPage: 96, seed: 29 });
  const queries = Array.from({ length: 12 }, (_, i) => corpus.makeQuery(queryCount, i * 131 + 7));
  const truths = queries.map((query) =>
    corpus.pages
      .map((page) => ({ key: page.key, score: exactMaxSim(query, queryCount, page.vectors, page.count, d) }))
      .sort((a, b) => b.score - a.score)
      .slice(0, 10)
      .map((hit) => hit.key),
  );

  function build(centroids?: number): LateInteractionIndex {
    const index = new LateInteractionIndex({ dimensions: d, ...(centroids ? { centroids } : {}) });
    for (const page of corpus.pages) index.upsert(page.key, page.vectors, page.count);
    return index;
  }

  function centroidRecall(index: LateInteractionIndex, count: number): number {
    let found = 0;
    queries.forEach((query, i) => {
      const ranked = new Set(index.centroidRanking(query, queryCount, count));
      expect(ranked.size).toBe(count);
      found += truths[i]!.filter((key) => ranked.has(key)).length;
    });
    return found / (queries.length * 10);
  }

  it('keeps the exact top 10 in its best 64 with a codebook sized to the pages, unlike a small one', () => {
    const sized = build();
    const small = build(64);
    const sizedRecall = centroidRecall(sized, 64);
    const smallRecall = centroidRecall(small, 64);
    console.log(
      `centroid stage recall of the exact top 10 in its best 64: sized ${sizedRecall}, 64 centroids ${smallRecall}`,
    );
    expect(sizedRecall).toBeGreaterThanOrEqual(0.95);
    expect(sizedRecall).toBeGreaterThan(smallRecall);
  }, 120_000);

  it('then, decoded and cut to 32, still holds what it kept', () => {
    const index = build();
    let kept = 0;
    let decoded = 0;
    queries.forEach((query, i) => {
      const truth = truths[i]!;
      const ranked = new Set(index.centroidRanking(query, queryCount, 64));
      const hits = new Set(index.search(query, queryCount, 32, { candidates: 64 }).map((hit) => hit.key));
      kept += truth.filter((key) => ranked.has(key)).length;
      decoded += truth.filter((key) => hits.has(key)).length;
    });
    expect(decoded / (queries.length * 10)).toBeGreaterThanOrEqual(0.95);
    expect(decoded).toBeGreaterThanOrEqual(kept - 2);
  }, 120_000);
});
