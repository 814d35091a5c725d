import { describe, expect, it } from 'vitest';
import { JsBestMatch } from '../../src/core/index/lateInteraction/bestMatch';
import { JsCoarseScores } from '../../src/core/index/lateInteraction/coarseScores';
import { JsCodedPageScorer } from '../../src/core/index/lateInteraction/codedPageScorer';
import { ResidualCodec, type ResidualBits } from '../../src/core/index/lateInteraction/residualCodec';
import { SeededRandom } from '../../src/core/common/seededRandom';
import { WasmBestMatch } from '../../src/core/index/lateInteraction/wasmBestMatch';
import { WasmCoarseScores } from '../../src/core/index/lateInteraction/wasmCoarseScores';
import { WasmCodedPageScorer } from '../../src/core/index/lateInteraction/wasmCodedPageScorer';
import { ensureMemory, instantiateKernels } from '../../src/core/index/lateInteraction/wasmModule';

function gaussianRows(random: SeededRandom, count: number, d: number): Float32Array {
  return Float32Array.from({ length: count * d }, () => random.gaussian());
}

describe('WebAssembly kernels', () => {
  it('find the same best rows and maxima as the JavaScript kernel, for ragged row counts', () => {
    const random = new SeededRandom(2);
    for (const [d, leftRows, rightRows] of [
      [128, 32, 130],
      [16, 5, 1],
      [64, 7, 33],
    ] as const) {
      const wasm = WasmBestMatch.create(d);
      expect(wasm).not.toBeNull();
      const js = new JsBestMatch(d);
      const left = gaussianRows(random, leftRows + 2, d);
      const right = gaussianRows(random, rightRows + 3, d);
      wasm!.setLeft(left, leftRows, 2);
      js.setLeft(left, leftRows, 2);
      const fromWasm = wasm!.bestAgainst(right, 3, rightRows);
      const maxima = Array.from(fromWasm.max);
      const rows = Array.from(fromWasm.arg);
      const fromJs = js.bestAgainst(right, 3, rightRows);
      expect(rows).toEqual(Array.from(fromJs.arg));
      maxima.forEach((value, i) => expect(value).toBeCloseTo(fromJs.max[i]!, 3));
    }
  });

  it('compute the same coarse page scores as the JavaScript version, query rows not a multiple of four', () => {
    const random = new SeededRandom(8);
    const centroids = 40;
    const queryCount = 7;
    const table = Float32Array.from({ length: centroids * queryCount }, () => random.gaussian());
    const lists = Array.from({ length: 25 }, () =>
      Array.from({ length: 1 + random.int(10) }, () => random.int(centroids)),
    );
    const codes = Uint16Array.from(lists.flat());
    const starts = new Int32Array(lists.length + 1);
    lists.forEach((ids, page) => (starts[page + 1] = starts[page]! + ids.length));
    const wasm = WasmCoarseScores.create();
    expect(wasm).not.toBeNull();
    const fromWasm = Array.from(wasm!.score(table, centroids, queryCount, codes, starts, lists.length));
    const fromJs = new JsCoarseScores().score(table, centroids, queryCount, codes, starts, lists.length);
    fromWasm.forEach((value, page) => expect(value).toBeCloseTo(fromJs[page]!, 4));
  });

  it('decode and score coded pages as the JavaScript decoder does, at 2 and 4 bits and growing pages', () => {
    const random = new SeededRandom(5);
    for (const [d, bits] of [
      [128, 4],
      [128, 2],
      [16, 4],
    ] as Array<[number, ResidualBits]>) {
      const centroidCount = 12;
      const centroids = gaussianRows(random, centroidCount, d);
      const rows = 700;
      const vectors = gaussianRows(random, rows, d);
      const ids = Uint16Array.from({ length: rows }, () => random.int(centroidCount));
      const residuals = new Float32Array(rows * d);
      for (let i = 0; i < rows * d; i++) {
        residuals[i] = vectors[i]! - centroids[ids[Math.floor(i / d)]! * d + (i % d)]!;
      }
      const codec = ResidualCodec.train(residuals, rows, d, bits);
      const codes = new Uint8Array(rows * codec.bytesPerVector);
      for (let row = 0; row < rows; row++) {
        codec.encode(vectors, row, centroids, ids[row]!, codes, row * codec.bytesPerVector);
      }
      const wasm = WasmCodedPageScorer.create(centroids, codec);
      expect(wasm).not.toBeNull();
      const js = new JsCodedPageScorer(centroids, codec);
      const query = gaussianRows(random, 7, d);
      wasm!.setQuery(query, 7);
      js.setQuery(query, 7);
      // Pages past the scorer's first capacity (256 rows) make it grow its memory mid-search.
      for (const [first, count] of [
        [0, 1],
        [3, 40],
        [50, 300],
        [0, 700],
        [10, 0],
      ] as const) {
        const expected = js.score(ids, codes, first, count);
        expect(wasm!.score(ids, codes, first, count)).toBeCloseTo(expected, 3);
        if (count > 0) expect(expected).not.toBe(0);
      }
    }
  });

  it('widen every finite fp16 value to the f32 that Float16Array gives, subnormals and signed zeros included', () => {
    const kernels = instantiateKernels();
    expect(kernels).not.toBeNull();
    const finite = Uint16Array.from({ length: 65536 }, (_, bits) => bits).filter(
      (bits) => (bits & 0x7c00) !== 0x7c00,
    );
    const count = finite.length;
    ensureMemory(kernels!.memory, count * 6 + 64);
    new Uint16Array(kernels!.memory.buffer, 0, count).set(finite);
    kernels!.widenHalves(0, count, count * 2 + 16);
    const widened = new Float32Array(kernels!.memory.buffer, count * 2 + 16, count);
    const expected = new Float32Array(new Float16Array(finite.buffer));
    expect(Object.is(widened[1], expected[1])).toBe(true);
    for (let i = 0; i < count; i++) {
      if (!Object.is(widened[i], expected[i]))
        expect([finite[i], widened[i]]).toEqual([finite[i], expected[i]]);
    }
  });

  it('score fp16 page cells as the JavaScript kernel does, from odd offsets and ragged row counts', () => {
    const random = new SeededRandom(11);
    for (const [d, rows] of [
      [128, 850],
      [4, 3],
      [12, 5],
    ] as const) {
      const wasm = WasmBestMatch.create(d);
      expect(wasm).not.toBeNull();
      const js = new JsBestMatch(d);
      const query = gaussianRows(random, 5, d);
      wasm!.setLeft(query, 5);
      js.setLeft(query, 5);
      const half = new Float16Array(gaussianRows(random, rows, d));
      // A cell read from Arrow can start at an odd byte.
      const backing = new Uint8Array(half.byteLength + 1);
      backing.set(new Uint8Array(half.buffer), 1);
      const cell = backing.subarray(1);
      expect(wasm!.sumOfBestHalves(cell, rows)).toBeCloseTo(js.sumOfBestHalves(cell, rows), 3);
      expect(wasm!.sumOfBestHalves(cell, rows)).toBeCloseTo(js.sumOfBest(new Float32Array(half), 0, rows), 3);
    }
  });
});
