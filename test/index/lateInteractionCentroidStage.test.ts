import { describe, expect, it } from 'vitest';
import { exactMaxSim, LateInteractionIndex } from '../../src/core/index/lateInteraction';
import { CentroidPostings } from '../../src/core/index/lateInteraction/centroidPostings';
import { makeSyntheticCorpus } from '../helpers/syntheticPages';

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

  function build(centroids?: number, probe: { probeCentroids?: number; probePages?: number } = {}) {
    const index = new LateInteractionIndex({ dimensions: d, ...(centroids ? { centroids } : {}), ...probe });
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

  it('keeps as much when the probe hands coarse scoring only the pages near the query', () => {
    // 1500 pages, 128 probed: the probe runs (it needs over twice the pages it hands on).
    const probed = build(undefined, { probeCentroids: 8, probePages: 128 });
    const everyPage = centroidRecall(build(undefined, { probeCentroids: 0 }), 64);
    const probedRecall = centroidRecall(probed, 64);
    console.log(`centroid stage recall in its best 64: every page ${everyPage}, probed ${probedRecall}`);
    expect(probedRecall).toBeGreaterThanOrEqual(0.95);
    expect(probedRecall).toBeGreaterThanOrEqual(everyPage - 0.02);
  }, 120_000);
});

describe('CentroidPostings probe', () => {
  // Centroid-by-query cosines, table[c * 2 + q], for 4 centroids and 2 query vectors.
  const table = Float32Array.from([0.9, 0.1, 0.1, 0.2, 0.5, 0.8, 0.2, 0.7]);
  const slotIds = [[0], [1], [0, 2], [3], [2]];

  it('ranks live slots by their gain over the first centroid not followed, counting a slot once per query vector', () => {
    const postings = new CentroidPostings(4);
    slotIds.forEach((ids, slot) => postings.add(slot, ids));
    // q0 follows c0, c2 (floor c3 = 0.2); q1 follows c2, c3 (floor c1 = 0.2). Slot 4 is dead.
    // Gains: slot 2 = 0.7 + 0.6, slot 0 = 0.7, slot 3 = 0.5, slot 1 = 0.
    const ranked = postings.probe(table, 2, 2, 5, (slot) => slot !== 4, 3);
    expect(ranked).toEqual([2, 0, 3]);
  });

  it('follows renumbered slots after a rebuild', () => {
    const postings = new CentroidPostings(4);
    slotIds.forEach((ids, slot) => postings.add(slot, ids));
    // Slot 1 is gone; the others move down one from slot 2 on, and all are live.
    // Gains: slot 1 (was 2) = 1.3, slot 3 (was 4) = 0.3 + 0.6, slot 0 = 0.7, slot 2 = 0.5.
    const kept = [slotIds[0]!, slotIds[2]!, slotIds[3]!, slotIds[4]!];
    postings.rebuild(kept.length, (slot) => kept[slot]!);
    expect(postings.probe(table, 2, 2, 4, () => true, 2)).toEqual([1, 3]);
  });
});
