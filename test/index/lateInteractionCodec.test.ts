import { describe, expect, it } from 'vitest';
import { SeededRandom } from '../../src/core/common/seededRandom';
import { exactMaxSim, LateInteractionIndex } from '../../src/core/index/lateInteraction';
import { createBestMatch } from '../../src/core/index/lateInteraction/bestMatch';
import { ResidualCodec } from '../../src/core/index/lateInteraction/residualCodec';
import { makeSyntheticCorpus } from '../helpers/syntheticPages';
import { poolPage } from '../../src/core/index/lateInteraction/tokenPooling';

function gaussianRows(random: SeededRandom, count: number, d: number, scale: number): Float32Array {
  return Float32Array.from({ length: count * d }, () => scale * random.gaussian());
}

function unit(rows: Float32Array, d: number): Float32Array {
  const out = rows.slice();
  for (let r = 0; r < out.length / d; r++) {
    let norm = 0;
    for (let k = 0; k < d; k++) norm += out[r * d + k]! ** 2;
    for (let k = 0; k < d; k++) out[r * d + k]! /= Math.sqrt(norm);
  }
  return out;
}

function dot(a: Float32Array, aRow: number, b: Float32Array, bRow: number, d: number): number {
  let sum = 0;
  for (let k = 0; k < d; k++) sum += a[aRow * d + k]! * b[bRow * d + k]!;
  return sum;
}

describe('ResidualCodec', () => {
  const d = 32;
  const random = new SeededRandom(5);
  // Residuals of unit vectors around unit centroids: small, centred on zero.
  const centroids = unit(gaussianRows(random, 8, d, 1), d);
  const vectors = new Float32Array(400 * d);
  const owner = Int32Array.from({ length: 400 }, (_, i) => i % 8);
  for (let row = 0; row < 400; row++) {
    for (let k = 0; k < d; k++)
      vectors[row * d + k] = centroids[owner[row]! * d + k]! + 0.05 * random.gaussian();
  }
  const normalised = unit(vectors, d);
  const residuals = Float32Array.from(
    normalised,
    (v, i) => v - centroids[owner[Math.floor(i / d)]! * d + (i % d)]!,
  );

  it.each([2, 4] as const)('packs %i bits per dimension and decodes within the bucket it chose', (bits) => {
    const codec = ResidualCodec.train(residuals, 400, d, bits);
    expect(codec.bytesPerVector).toBe((d * bits) / 8);
    const levels = 1 << bits;
    const code = new Uint8Array(codec.bytesPerVector);
    const decoded = new Float32Array(d);
    let worstCosine = 1;
    for (let row = 0; row < 400; row++) {
      codec.encode(normalised, row, centroids, owner[row]!, code, 0);
      for (let k = 0; k < d; k++) {
        const level = (code[Math.floor((k * bits) / 8)]! >> ((k * bits) % 8)) & (levels - 1);
        const residual = normalised[row * d + k]! - centroids[owner[row]! * d + k]!;
        // The chosen bucket is the one whose cut-offs enclose the residual.
        if (level > 0) expect(residual).toBeGreaterThanOrEqual(codec.cutoffs[k * (levels - 1) + level - 1]!);
        if (level < levels - 1) expect(residual).toBeLessThan(codec.cutoffs[k * (levels - 1) + level]!);
      }
      codec.decode(code, 0, centroids, owner[row]!, decoded, 0);
      expect(dot(decoded, 0, decoded, 0, d)).toBeCloseTo(1, 5);
      worstCosine = Math.min(worstCosine, dot(decoded, 0, normalised, row, d));
    }
    // Error bound: the residual is about 0.2 of the vector; its coarsest quantisation keeps cosines high.
    expect(worstCosine).toBeGreaterThan(bits === 4 ? 0.99 : 0.98);
  });

  it('gets closer with more bits', () => {
    const error = (bits: 2 | 4) => {
      const codec = ResidualCodec.train(residuals, 400, d, bits);
      const code = new Uint8Array(codec.bytesPerVector);
      const decoded = new Float32Array(d);
      let sum = 0;
      for (let row = 0; row < 400; row++) {
        codec.encode(normalised, row, centroids, owner[row]!, code, 0);
        codec.decode(code, 0, centroids, owner[row]!, decoded, 0);
        sum += 1 - dot(decoded, 0, normalised, row, d);
      }
      return sum / 400;
    };
    expect(error(4)).toBeLessThan(error(2) / 2);
  });

  it('refuses tables that do not match its shape', () => {
    expect(() => new ResidualCodec(d, 2, new Float32Array(3), new Float32Array(4 * d))).toThrow(
      /do not match/,
    );
    expect(() => new ResidualCodec(3, 2, new Float32Array(9), new Float32Array(12))).toThrow(/whole bytes/);
  });
});

describe('poolPage', () => {
  const d = 16;
  const kernel = createBestMatch(d);

  it('keeps the page as it is at factor 1', () => {
    const rows = unit(gaussianRows(new SeededRandom(1), 10, d, 1), d);
    const pooled = poolPage(kernel, rows, 10, d, 1);
    expect(pooled.count).toBe(10);
    expect([...pooled.vectors]).toEqual([...rows]);
  });

  it('collapses repeated patches into one vector each', () => {
    const distinct = unit(gaussianRows(new SeededRandom(2), 3, d, 1), d);
    const rows = new Float32Array(30 * d);
    for (let row = 0; row < 30; row++)
      rows.set(distinct.subarray(Math.floor(row / 10) * d, (Math.floor(row / 10) + 1) * d), row * d);
    const pooled = poolPage(kernel, rows, 30, d, 10);
    expect(pooled.count).toBe(3);
    for (let c = 0; c < 3; c++) expect(dot(pooled.vectors, c, distinct, c, d)).toBeCloseTo(1, 5);
  });

  it('halves a clustered page while keeping its MaxSim close', () => {
    const corpus = makeSyntheticCorpus({ dimensions: d, pages: 20, vectorsPerPage: 200, seed: 9 });
    for (let p = 0; p < 5; p++) {
      const page = corpus.pageAt(p);
      const pooled = poolPage(kernel, page.vectors, page.count, d, 2);
      expect(pooled.count).toBeLessThanOrEqual(100);
      expect(pooled.count).toBeGreaterThan(50);
      const query = corpus.makeQuery(8, p);
      const full = exactMaxSim(query, 8, page.vectors, page.count, d);
      const after = exactMaxSim(query, 8, pooled.vectors, pooled.count, d);
      expect(Math.abs(full - after) / full).toBeLessThan(0.05);
    }
  });
});

describe('LateInteractionIndex candidate stage', () => {
  it('finds what an exhaustive search over the stored vectors finds, re-scoring a small share', () => {
    const d = 64;
    const corpus = makeSyntheticCorpus({ dimensions: d, pages: 2000, vectorsPerPage: 48, seed: 13 });
    const index = new LateInteractionIndex({ dimensions: d, candidates: 256 });
    for (const page of corpus.pages) index.upsert(page.key, page.vectors, page.count);
    expect(index.stats().codebookTrainings).toBe(1);
    let found = 0;
    for (let i = 0; i < 20; i++) {
      const query = corpus.makeQuery(24, i * 71 + 3);
      const all = index.search(query, 24, 10, { candidates: Infinity });
      const hits = index.search(query, 24, 10);
      const keys = new Set(hits.map((hit) => hit.key));
      found += all.filter((hit) => keys.has(hit.key)).length;
      // The same page gets the same (decoded) score from both stages.
      const shared = all.find((hit) => keys.has(hit.key))!;
      expect(hits.find((hit) => hit.key === shared.key)!.score).toBeCloseTo(shared.score, 4);
    }
    expect(found / 200).toBeGreaterThanOrEqual(0.95);
  });

  it('stores far fewer bytes than the vectors it was given', () => {
    const d = 64;
    const corpus = makeSyntheticCorpus({ dimensions: d, pages: 600, vectorsPerPage: 64, seed: 2 });
    const index = new LateInteractionIndex({ dimensions: d, centroids: 128 });
    for (const page of corpus.pages) index.upsert(page.key, page.vectors, page.count);
    const given = 600 * 64 * d * 4;
    // Pooled to half the vectors, each a 2-byte id plus 4 bits per dimension: about 1/15 of fp32.
    expect(index.stats().codeBytes).toBeLessThan(given / 10);
    expect(index.stats().storedVectors).toBeLessThanOrEqual(600 * 32);
  });
});
