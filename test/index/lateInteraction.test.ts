import { describe, expect, it } from 'vitest';
import { exactMaxSim, LateInteractionIndex } from '../../src/core/index/lateInteraction';
import { SeededRandom } from '../../src/core/common/seededRandom';
import { makeSyntheticCorpus } from '../helpers/syntheticPages';

const dimensions = 16;

function unitRows(random: SeededRandom, count: number, d = dimensions): Float32Array {
  const rows = new Float32Array(count * d);
  for (let r = 0; r < count; r++) {
    let norm = 0;
    for (let k = 0; k < d; k++) {
      const value = random.gaussian();
      rows[r * d + k] = value;
      norm += value * value;
    }
    for (let k = 0; k < d; k++) rows[r * d + k]! /= Math.sqrt(norm);
  }
  return rows;
}

/** The definition, written as plainly as possible. */
function naiveMaxSim(
  query: Float32Array,
  queryCount: number,
  page: Float32Array,
  pageCount: number,
  d: number,
) {
  let total = 0;
  for (let q = 0; q < queryCount; q++) {
    const sims: number[] = [];
    for (let p = 0; p < pageCount; p++) {
      let sim = 0;
      for (let k = 0; k < d; k++) sim += query[q * d + k]! * page[p * d + k]!;
      sims.push(sim);
    }
    total += Math.max(...sims);
  }
  return total;
}

function exactTopKeys(
  pages: Array<{ key: string; vectors: Float32Array; count: number }>,
  query: Float32Array,
  queryCount: number,
  d: number,
  k: number,
): string[] {
  return pages
    .map((page) => ({ key: page.key, score: exactMaxSim(query, queryCount, page.vectors, page.count, d) }))
    .sort((a, b) => b.score - a.score)
    .slice(0, k)
    .map((hit) => hit.key);
}

describe('exactMaxSim', () => {
  it('matches the naive definition for every shape of query and page', () => {
    const random = new SeededRandom(7);
    for (const [queryCount, pageCount] of [
      [1, 1],
      [3, 5],
      [4, 4],
      [7, 1],
      [32, 19],
    ] as const) {
      const query = unitRows(random, queryCount);
      const page = unitRows(random, pageCount);
      expect(exactMaxSim(query, queryCount, page, pageCount, dimensions)).toBeCloseTo(
        naiveMaxSim(query, queryCount, page, pageCount, dimensions),
        5,
      );
    }
  });

  it('is zero for an empty query or page', () => {
    const random = new SeededRandom(1);
    expect(exactMaxSim(unitRows(random, 2), 2, new Float32Array(0), 0, dimensions)).toBe(0);
    expect(exactMaxSim(new Float32Array(0), 0, unitRows(random, 2), 2, dimensions)).toBe(0);
  });

  it('scores a page that contains the query vectors at the query count', () => {
    const random = new SeededRandom(3);
    const query = unitRows(random, 5);
    const page = new Float32Array([...unitRows(random, 3), ...query]);
    expect(exactMaxSim(query, 5, page, 8, dimensions)).toBeCloseTo(5, 5);
  });
});

describe('LateInteractionIndex', () => {
  it('returns nothing from an empty index', () => {
    // Token pooling off: under `exactUpToPages` the given vectors are kept and searched exactly.
    const index = new LateInteractionIndex({ dimensions, poolFactor: 1 });
    expect(index.size).toBe(0);
    expect(index.search(unitRows(new SeededRandom(1), 4), 4, 10)).toEqual([]);
  });

  it('returns every page, best first, when k exceeds the size', () => {
    const random = new SeededRandom(11);
    // Token pooling off: under `exactUpToPages` the given vectors are kept and searched exactly.
    const index = new LateInteractionIndex({ dimensions, poolFactor: 1 });
    const pages = ['a', 'b', 'c'].map((key) => ({ key, vectors: unitRows(random, 6), count: 6 }));
    for (const page of pages) index.upsert(page.key, page.vectors, page.count);
    const query = unitRows(random, 4);
    const hits = index.search(query, 4, 50);
    expect(hits.map((hit) => hit.key)).toEqual(exactTopKeys(pages, query, 4, dimensions, 3));
    for (const hit of hits) {
      const page = pages.find((p) => p.key === hit.key)!;
      expect(hit.score).toBeCloseTo(exactMaxSim(query, 4, page.vectors, page.count, dimensions), 2);
    }
  });

  it('replaces a page on upsert under the same key', () => {
    const random = new SeededRandom(5);
    // Token pooling off: under `exactUpToPages` the given vectors are kept and searched exactly.
    const index = new LateInteractionIndex({ dimensions, poolFactor: 1 });
    const query = unitRows(random, 3);
    index.upsert('other', unitRows(random, 8), 8);
    index.upsert('page', unitRows(random, 8), 8);
    index.upsert('page', query, 3);
    expect(index.size).toBe(2);
    const hits = index.search(query, 3, 2);
    expect(hits[0]).toMatchObject({ key: 'page' });
    expect(hits[0]!.score).toBeCloseTo(3, 2);
  });

  it('forgets deleted pages, also across many deletes and re-adds', () => {
    const random = new SeededRandom(9);
    // Token pooling off: under `exactUpToPages` the given vectors are kept and searched exactly.
    const index = new LateInteractionIndex({ dimensions, poolFactor: 1 });
    const pages = Array.from({ length: 400 }, (_, i) => ({
      key: `p${i}`,
      vectors: unitRows(random, 20),
      count: 20,
    }));
    for (const page of pages) index.upsert(page.key, page.vectors, page.count);
    index.delete('missing');
    for (let i = 0; i < 300; i++) index.delete(`p${i}`);
    expect(index.size).toBe(100);
    const survivors = pages.slice(300);
    const query = unitRows(random, 4);
    expect(index.search(query, 4, 200).map((hit) => hit.key)).toEqual(
      exactTopKeys(survivors, query, 4, dimensions, 100),
    );
    const target = pages[0]!;
    index.upsert(target.key, target.vectors, target.count);
    const own = target.vectors.subarray(0, 4 * dimensions);
    expect(index.search(own, 4, 1)[0]?.key).toBe(target.key);
  });

  it('finds most of the exact top 10 over the given vectors from coded pages', () => {
    const d = 64;
    const corpus = makeSyntheticCorpus({ dimensions: d, pages: 2000, vectorsPerPage: 48, seed: 21 });
    const index = new LateInteractionIndex({ dimensions: d, candidates: 256, poolFactor: 1 });
    for (const page of corpus.pages) index.upsert(page.key, page.vectors, page.count);
    expect(index.size).toBe(2000);
    let found = 0;
    const queries = 20;
    for (let i = 0; i < queries; i++) {
      const query = corpus.makeQuery(24, i * 97 + 5);
      const truth = exactTopKeys(corpus.pages, query, 24, d, 10);
      const hits = index.search(query, 24, 10);
      expect(hits).toHaveLength(10);
      const keys = new Set(hits.map((hit) => hit.key));
      found += truth.filter((key) => keys.has(key)).length;
      // The returned score is MaxSim over the page's stored (decoded) vectors: close to exact.
      const top = corpus.pages.find((page) => page.key === hits[0]!.key)!;
      const exact = exactMaxSim(query, 24, top.vectors, top.count, d);
      expect(Math.abs(hits[0]!.score - exact) / exact).toBeLessThan(0.03);
    }
    console.log(`recall@10 against exact MaxSim over the given vectors: ${found / (queries * 10)}`);
    expect(found / (queries * 10)).toBeGreaterThanOrEqual(0.8);
  });

  it('answers searches between incremental additions before and after the codebook is learnt', () => {
    const d = 32;
    const corpus = makeSyntheticCorpus({ dimensions: d, pages: 900, vectorsPerPage: 16, seed: 4 });
    const index = new LateInteractionIndex({
      dimensions: d,
      exactUpToPages: 100,
      poolFactor: 1,
      candidates: 150,
      centroids: 256,
    });
    const query = corpus.makeQuery(8, 50);
    for (let added = 0; added < corpus.pages.length; added++) {
      const page = corpus.pages[added]!;
      index.upsert(page.key, page.vectors, page.count);
      if ((added + 1) % 150 !== 0) continue;
      const truth = exactTopKeys(corpus.pages.slice(0, added + 1), query, 8, d, 5);
      const hits = index.search(query, 8, 5).map((hit) => hit.key);
      expect(hits).toContain(truth[0]);
      // The codebook is learnt once, from the first 100 pages; later pages are coded against it.
      expect(hits.filter((key) => truth.includes(key)).length).toBeGreaterThanOrEqual(2);
    }
    expect(index.stats().codebookTrainings).toBe(1);
  });
});
