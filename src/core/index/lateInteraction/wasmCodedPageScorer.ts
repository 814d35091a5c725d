import type { ResidualCodec } from './residualCodec';
import {
  ensureMemory,
  instantiateKernels,
  type BestMatchesExport,
  type DecodeResidualsExport,
  type WasmKernels,
  type WasmMemory,
} from './wasmModule';

const align16 = (bytes: number) => (bytes + 15) & ~15;

/**
 * Decodes a coded page into the kernel's own memory and scores it there: the codebook and the
 * codec's table are copied in once, then each page costs a copy of its codes (a twelfth of its
 * decoded size at 4 bits) instead of a JavaScript decode and a copy of the decoded rows.
 */
export class WasmCodedPageScorer {
  private readonly memory: WasmMemory;
  private readonly bestMatches: BestMatchesExport;
  private readonly decode: DecodeResidualsExport;
  private readonly dimensions: number;
  private readonly bytesPerVector: number;
  // Memory: [centroids][codec table][query rows, padded to four][page codes][page ids][decoded rows]
  // [best per query row][argmax per query row]. Everything before the page codes stays put.
  private readonly tableOffset: number;
  private readonly queryOffset: number;
  private queryRows = 0;
  private paddedQueryRows = 0;
  private capacityRows = 0;
  private codesOffset = 0;
  private idsOffset = 0;
  private decodedOffset = 0;
  private outMaxOffset = 0;
  private outArgOffset = 0;

  /** Null when this runtime lacks WebAssembly SIMD or the rows cannot be split into 4-float lanes. */
  static create(centroids: Float32Array, codec: ResidualCodec): WasmCodedPageScorer | null {
    if (codec.dimensions % 4 !== 0) return null;
    const kernels = instantiateKernels();
    return kernels ? new WasmCodedPageScorer(kernels, centroids, codec) : null;
  }

  private constructor(kernels: WasmKernels, centroids: Float32Array, codec: ResidualCodec) {
    this.memory = kernels.memory;
    this.bestMatches = kernels.bestMatches;
    this.decode = kernels.decodeResiduals[codec.bits];
    this.dimensions = codec.dimensions;
    this.bytesPerVector = codec.bytesPerVector;
    this.tableOffset = align16(centroids.byteLength);
    this.queryOffset = align16(this.tableOffset + codec.byteTable.byteLength);
    ensureMemory(this.memory, this.queryOffset);
    new Float32Array(this.memory.buffer, 0, centroids.length).set(centroids);
    new Float32Array(this.memory.buffer, this.tableOffset, codec.byteTable.length).set(codec.byteTable);
  }

  setQuery(query: Float32Array, queryCount: number): void {
    const d = this.dimensions;
    this.queryRows = queryCount;
    this.paddedQueryRows = (queryCount + 3) & ~3;
    this.layout(Math.max(this.capacityRows, 256));
    const left = new Float32Array(this.memory.buffer, this.queryOffset, this.paddedQueryRows * d);
    left.set(query.subarray(0, queryCount * d));
    left.fill(0, queryCount * d);
  }

  score(ids: Uint16Array, residuals: Uint8Array, firstRow: number, rowCount: number): number {
    if (rowCount === 0 || this.queryRows === 0) return 0;
    if (rowCount > this.capacityRows) this.layout(Math.max(rowCount, this.capacityRows * 2));
    const width = this.bytesPerVector;
    const rowBytes = this.dimensions * 4;
    const buffer = this.memory.buffer;
    new Uint8Array(buffer, this.codesOffset, rowCount * width).set(
      residuals.subarray(firstRow * width, (firstRow + rowCount) * width),
    );
    new Uint16Array(buffer, this.idsOffset, rowCount).set(ids.subarray(firstRow, firstRow + rowCount));
    this.decode(
      this.codesOffset,
      this.idsOffset,
      rowCount,
      0,
      this.tableOffset,
      rowBytes,
      this.decodedOffset,
    );
    this.bestMatches(
      this.queryOffset,
      this.paddedQueryRows,
      this.decodedOffset,
      rowCount,
      rowBytes,
      this.outMaxOffset,
      this.outArgOffset,
    );
    const best = new Float32Array(buffer, this.outMaxOffset, this.queryRows);
    let total = 0;
    for (let i = 0; i < best.length; i++) total += best[i]!;
    return total;
  }

  private layout(rows: number): void {
    const rowBytes = this.dimensions * 4;
    this.codesOffset = align16(this.queryOffset + this.paddedQueryRows * rowBytes);
    this.idsOffset = align16(this.codesOffset + rows * this.bytesPerVector);
    this.decodedOffset = align16(this.idsOffset + rows * 2);
    this.outMaxOffset = this.decodedOffset + rows * rowBytes;
    this.outArgOffset = this.outMaxOffset + this.paddedQueryRows * 4;
    ensureMemory(this.memory, this.outArgOffset + this.paddedQueryRows * 4);
    this.capacityRows = rows;
  }
}
