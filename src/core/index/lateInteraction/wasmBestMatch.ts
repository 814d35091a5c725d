import {
  ensureMemory,
  instantiateKernels,
  type BestMatchesExport,
  type WasmMemory,
  type WidenHalvesExport,
} from './wasmModule';

/**
 * One instance keeps its own linear memory: a left matrix set once (the query, or a page) and a
 * right matrix copied in per call. Not shared between threads.
 */
export class WasmBestMatch {
  readonly dimensions: number;
  private readonly memory: WasmMemory;
  private readonly run: BestMatchesExport;
  private readonly widen: WidenHalvesExport;
  private leftRows = 0;
  private paddedLeftRows = 0;
  private rightOffset = 0;
  private rightCapacityRows = 0;
  private outMaxOffset = 0;
  private outArgOffset = 0;
  private halvesOffset = 0;

  /** Null when this runtime lacks WebAssembly SIMD or the rows cannot be split into 4-float lanes. */
  static create(dimensions: number): WasmBestMatch | null {
    if (dimensions % 4 !== 0) return null;
    const kernels = instantiateKernels();
    return kernels
      ? new WasmBestMatch(dimensions, kernels.memory, kernels.bestMatches, kernels.widenHalves)
      : null;
  }

  private constructor(
    dimensions: number,
    memory: WasmMemory,
    run: BestMatchesExport,
    widen: WidenHalvesExport,
  ) {
    this.dimensions = dimensions;
    this.memory = memory;
    this.run = run;
    this.widen = widen;
  }

  /** Copies the left matrix in; it stays until the next call. */
  setLeft(rows: Float32Array, rowCount: number, firstRow = 0): void {
    this.leftRows = rowCount;
    this.paddedLeftRows = (rowCount + 3) & ~3;
    this.layout(this.rightCapacityRows);
    const d = this.dimensions;
    const left = new Float32Array(this.memory.buffer, 0, this.paddedLeftRows * d);
    left.set(rows.subarray(firstRow * d, (firstRow + rowCount) * d));
    left.fill(0, rowCount * d);
  }

  /**
   * Best dot product of every left row over `rowCount` rows of `rows` from `firstRow`. Returns views
   * into the kernel's memory, valid until the next call.
   */
  bestAgainst(
    rows: Float32Array,
    firstRow: number,
    rowCount: number,
  ): { max: Float32Array; arg: Int32Array } {
    this.copyRight(rows, firstRow, rowCount);
    this.runOnRight(rowCount);
    return {
      max: new Float32Array(this.memory.buffer, this.outMaxOffset, this.leftRows),
      arg: new Int32Array(this.memory.buffer, this.outArgOffset, this.leftRows),
    };
  }

  /** Sum of the per-left-row maxima: MaxSim when the left matrix is the query. */
  sumOfBest(rows: Float32Array, firstRow: number, rowCount: number): number {
    if (rowCount === 0 || this.leftRows === 0) return 0;
    this.copyRight(rows, firstRow, rowCount);
    return this.sumOnRight(rowCount);
  }

  /** `sumOfBest` over `rowCount` rows given as little-endian fp16 (a page vector cell), widened here. */
  sumOfBestHalves(cell: Uint8Array, rowCount: number): number {
    if (rowCount === 0 || this.leftRows === 0) return 0;
    const values = rowCount * this.dimensions;
    this.reserveRight(rowCount);
    new Uint8Array(this.memory.buffer, this.halvesOffset, values * 2).set(cell.subarray(0, values * 2));
    this.widen(this.halvesOffset, (values + 7) & ~7, this.rightOffset);
    return this.sumOnRight(rowCount);
  }

  private reserveRight(rowCount: number): void {
    if (rowCount > this.rightCapacityRows) this.layout(Math.max(rowCount, this.rightCapacityRows * 2));
  }

  private copyRight(rows: Float32Array, firstRow: number, rowCount: number): void {
    const d = this.dimensions;
    this.reserveRight(rowCount);
    new Float32Array(this.memory.buffer, this.rightOffset, rowCount * d).set(
      rows.subarray(firstRow * d, (firstRow + rowCount) * d),
    );
  }

  /** Runs the kernel over the right rows already in memory. */
  private runOnRight(rowCount: number): void {
    const rowBytes = this.dimensions * 4;
    this.run(
      0,
      this.paddedLeftRows,
      this.rightOffset,
      rowCount,
      rowBytes,
      this.outMaxOffset,
      this.outArgOffset,
    );
  }

  private sumOnRight(rowCount: number): number {
    this.runOnRight(rowCount);
    const max = new Float32Array(this.memory.buffer, this.outMaxOffset, this.leftRows);
    let total = 0;
    for (let i = 0; i < max.length; i++) total += max[i]!;
    return total;
  }

  // Memory: [left rows][right rows][best per left row][argmax per left row][right rows as fp16]; the
  // left matrix stays put. Widening works in steps of 8 values, so the right rows and the fp16 rows
  // each get 32 spare bytes.
  private layout(rightRows: number): void {
    const rowBytes = this.dimensions * 4;
    const rightOffset = this.paddedLeftRows * rowBytes;
    const outMaxOffset = rightOffset + rightRows * rowBytes + 32;
    const outArgOffset = outMaxOffset + this.paddedLeftRows * 4;
    const halvesOffset = outArgOffset + this.paddedLeftRows * 4;
    ensureMemory(this.memory, halvesOffset + (rightRows * rowBytes) / 2 + 32);
    this.rightOffset = rightOffset;
    this.rightCapacityRows = rightRows;
    this.outMaxOffset = outMaxOffset;
    this.outArgOffset = outArgOffset;
    this.halvesOffset = halvesOffset;
  }
}
