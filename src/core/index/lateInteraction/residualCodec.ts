/**
 * The part of a page vector its codebook centroid does not explain, kept in 2 or 4 bits per
 * dimension (the residual compression of ColBERTv2 / PLAID). Each dimension has its own buckets:
 * cut-offs at the quantiles of that dimension's residuals in a training sample, and as the decoded
 * value the mean of the training residuals that fell in the bucket. A vector is rebuilt as its
 * centroid plus the bucket values, scaled back to unit length.
 */

export type ResidualBits = 2 | 4;

export class ResidualCodec {
  readonly dimensions: number;
  readonly bits: ResidualBits;
  /** Bytes one coded vector's residual takes. */
  readonly bytesPerVector: number;
  /** `dimensions x (levels - 1)` ascending cut-offs. */
  readonly cutoffs: Float32Array;
  /** `dimensions x levels` decoded value of each bucket. */
  readonly values: Float32Array;
  /**
   * Per byte position, the decoded values for all 256 byte patterns: `[position][byte][dimsPerByte]`
   * (what decoding looks up, here and in the WebAssembly decoder).
   */
  readonly byteTable: Float32Array;
  private readonly levels: number;
  private readonly perByte: number;

  constructor(dimensions: number, bits: ResidualBits, cutoffs: Float32Array, values: Float32Array) {
    const levels = 1 << bits;
    if ((dimensions * bits) % 8 !== 0) throw new Error(`${dimensions} dimensions do not fill whole bytes`);
    if (cutoffs.length !== dimensions * (levels - 1) || values.length !== dimensions * levels) {
      throw new Error('Residual codec tables do not match its dimensions and bits');
    }
    this.dimensions = dimensions;
    this.bits = bits;
    this.levels = levels;
    this.perByte = 8 / bits;
    this.bytesPerVector = (dimensions * bits) / 8;
    this.cutoffs = cutoffs;
    this.values = values;
    this.byteTable = new Float32Array(this.bytesPerVector * 256 * this.perByte);
    for (let position = 0; position < this.bytesPerVector; position++) {
      for (let byte = 0; byte < 256; byte++) {
        for (let j = 0; j < this.perByte; j++) {
          const level = (byte >> (j * bits)) & (levels - 1);
          const dim = position * this.perByte + j;
          this.byteTable[(position * 256 + byte) * this.perByte + j] = values[dim * levels + level]!;
        }
      }
    }
  }

  /** Learns per-dimension buckets from `count` residual rows. */
  static train(
    residuals: Float32Array,
    count: number,
    dimensions: number,
    bits: ResidualBits,
  ): ResidualCodec {
    const levels = 1 << bits;
    const cutoffs = new Float32Array(dimensions * (levels - 1));
    const values = new Float32Array(dimensions * levels);
    const column = new Float32Array(count);
    for (let k = 0; k < dimensions; k++) {
      for (let row = 0; row < count; row++) column[row] = residuals[row * dimensions + k]!;
      column.sort();
      for (let level = 0; level < levels; level++) {
        const from = Math.floor((level * count) / levels);
        const to = Math.max(from + 1, Math.floor(((level + 1) * count) / levels));
        let sum = 0;
        for (let i = from; i < Math.min(to, count); i++) sum += column[i]!;
        values[k * levels + level] = count === 0 ? 0 : sum / Math.max(1, Math.min(to, count) - from);
        if (level > 0) cutoffs[k * (levels - 1) + level - 1] = count === 0 ? 0 : column[from]!;
      }
    }
    return new ResidualCodec(dimensions, bits, cutoffs, values);
  }

  /** Codes `vector - centroid` into `out` at byte `outOffset`. */
  encode(
    vectors: Float32Array,
    row: number,
    centroids: Float32Array,
    centroid: number,
    out: Uint8Array,
    outOffset: number,
  ): void {
    const d = this.dimensions;
    const steps = this.levels - 1;
    out.fill(0, outOffset, outOffset + this.bytesPerVector);
    for (let k = 0; k < d; k++) {
      const residual = vectors[row * d + k]! - centroids[centroid * d + k]!;
      let level = 0;
      while (level < steps && residual >= this.cutoffs[k * steps + level]!) level++;
      out[outOffset + Math.floor(k / this.perByte)]! |= level << ((k % this.perByte) * this.bits);
    }
  }

  /** Rebuilds one unit-length vector into `out` at row `outRow`. */
  decode(
    codes: Uint8Array,
    codeOffset: number,
    centroids: Float32Array,
    centroid: number,
    out: Float32Array,
    outRow: number,
  ): void {
    const d = this.dimensions;
    const table = this.byteTable;
    const outStart = outRow * d;
    const centroidStart = centroid * d;
    const bytes = this.bytesPerVector;
    let norm = 0;
    // Unrolled per layout: decoding runs for every vector of every candidate page.
    if (this.perByte === 4) {
      for (let position = 0; position < bytes; position++) {
        const entry = (position * 256 + codes[codeOffset + position]!) * 4;
        const o = outStart + position * 4;
        const c = centroidStart + position * 4;
        const a = centroids[c]! + table[entry]!;
        const b = centroids[c + 1]! + table[entry + 1]!;
        const e = centroids[c + 2]! + table[entry + 2]!;
        const f = centroids[c + 3]! + table[entry + 3]!;
        out[o] = a;
        out[o + 1] = b;
        out[o + 2] = e;
        out[o + 3] = f;
        norm += a * a + b * b + e * e + f * f;
      }
    } else {
      for (let position = 0; position < bytes; position++) {
        const entry = (position * 256 + codes[codeOffset + position]!) * 2;
        const o = outStart + position * 2;
        const c = centroidStart + position * 2;
        const a = centroids[c]! + table[entry]!;
        const b = centroids[c + 1]! + table[entry + 1]!;
        out[o] = a;
        out[o + 1] = b;
        norm += a * a + b * b;
      }
    }
    if (norm === 0) return;
    const scale = 1 / Math.sqrt(norm);
    for (let k = 0; k < d; k++) out[outStart + k]! *= scale;
  }
}
