import { createBestMatch, type BestMatch } from './bestMatch';
import type { ResidualCodec } from './residualCodec';
import { WasmCodedPageScorer } from './wasmCodedPageScorer';

/**
 * MaxSim of one query against coded pages: each page's vectors rebuilt from centroid plus residual,
 * then scored. The candidate stage runs this for every candidate page, so decoding and scoring
 * share one WebAssembly memory where the runtime has SIMD.
 */
export interface CodedPageScorer {
  /** The query every following `score` call is against. */
  setQuery(query: Float32Array, queryCount: number): void;
  /** Sum over query vectors of the best cosine against coded rows `firstRow .. firstRow + rowCount`. */
  score(ids: Uint16Array, residuals: Uint8Array, firstRow: number, rowCount: number): number;
}

/** `centroids` is the codebook, f32 `[centroid][dimension]`, that `codec`'s residuals are relative to. */
export function createCodedPageScorer(centroids: Float32Array, codec: ResidualCodec): CodedPageScorer {
  return WasmCodedPageScorer.create(centroids, codec) ?? new JsCodedPageScorer(centroids, codec);
}

export class JsCodedPageScorer implements CodedPageScorer {
  private readonly kernel: BestMatch;
  private decoded = new Float32Array(0);

  constructor(
    private readonly centroids: Float32Array,
    private readonly codec: ResidualCodec,
  ) {
    this.kernel = createBestMatch(codec.dimensions);
  }

  setQuery(query: Float32Array, queryCount: number): void {
    this.kernel.setLeft(query, queryCount);
  }

  score(ids: Uint16Array, residuals: Uint8Array, firstRow: number, rowCount: number): number {
    const d = this.codec.dimensions;
    if (this.decoded.length < rowCount * d) this.decoded = new Float32Array(rowCount * d);
    const width = this.codec.bytesPerVector;
    for (let row = 0; row < rowCount; row++) {
      const at = firstRow + row;
      this.codec.decode(residuals, at * width, this.centroids, ids[at]!, this.decoded, row);
    }
    return this.kernel.sumOfBest(this.decoded, 0, rowCount);
  }
}
