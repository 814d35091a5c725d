import { WasmBestMatch } from './wasmBestMatch';

/** For each row of a left matrix (set once), the best dot product over the rows of a right matrix. */
export interface BestMatch {
  setLeft(rows: Float32Array, rowCount: number, firstRow?: number): void;
  /** Views valid until the next call: `max[i]` and `arg[i]` for left row i. */
  bestAgainst(rows: Float32Array, firstRow: number, rowCount: number): { max: Float32Array; arg: Int32Array };
  /** Sum of the per-left-row maxima (MaxSim when the left matrix is the query). */
  sumOfBest(rows: Float32Array, firstRow: number, rowCount: number): number;
  /** `sumOfBest` over `rowCount` rows given as little-endian fp16 bytes (a page vector cell). */
  sumOfBestHalves(cell: Uint8Array, rowCount: number): number;
}

/** The SIMD kernel where the runtime has one, otherwise the same thing in plain JavaScript. */
export function createBestMatch(dimensions: number): BestMatch {
  return WasmBestMatch.create(dimensions) ?? new JsBestMatch(dimensions);
}

export class JsBestMatch implements BestMatch {
  private left = new Float32Array(0);
  private leftRows = 0;
  private max = new Float32Array(0);
  private arg = new Int32Array(0);

  constructor(private readonly dimensions: number) {}

  setLeft(rows: Float32Array, rowCount: number, firstRow = 0): void {
    const d = this.dimensions;
    this.left = rows.slice(firstRow * d, (firstRow + rowCount) * d);
    this.leftRows = rowCount;
    this.max = new Float32Array(rowCount);
    this.arg = new Int32Array(rowCount);
  }

  bestAgainst(
    rows: Float32Array,
    firstRow: number,
    rowCount: number,
  ): { max: Float32Array; arg: Int32Array } {
    const d = this.dimensions;
    const left = this.left;
    for (let i = 0; i < this.leftRows; i++) {
      let best = -Infinity;
      let bestRow = 0;
      for (let j = 0; j < rowCount; j++) {
        const rowStart = (firstRow + j) * d;
        let sum = 0;
        for (let k = 0; k < d; k++) sum += left[i * d + k]! * rows[rowStart + k]!;
        if (sum > best) {
          best = sum;
          bestRow = j;
        }
      }
      this.max[i] = best;
      this.arg[i] = bestRow;
    }
    return { max: this.max, arg: this.arg };
  }

  sumOfBest(rows: Float32Array, firstRow: number, rowCount: number): number {
    if (rowCount === 0 || this.leftRows === 0) return 0;
    const { max } = this.bestAgainst(rows, firstRow, rowCount);
    let total = 0;
    for (let i = 0; i < max.length; i++) total += max[i]!;
    return total;
  }

  sumOfBestHalves(cell: Uint8Array, rowCount: number): number {
    // Copied first: a cell read from Arrow may start at an odd byte offset.
    const aligned = cell.slice(0, rowCount * this.dimensions * 2);
    return this.sumOfBest(new Float32Array(new Float16Array(aligned.buffer)), 0, rowCount);
  }
}
