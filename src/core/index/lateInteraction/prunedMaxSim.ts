import type { Codebook } from './codebook';
import type { ResidualCodec } from './residualCodec';

/**
 * The middle stage between the coarse centroid scores and exact MaxSim (PLAID's centroid pruning):
 * a page's rows are kept sorted by centroid, and for each query vector only the rows whose centroid
 * scores within `margin` of the page's best centroid for that query vector are decoded and scored
 * exactly. The result never exceeds the page's exact MaxSim over its stored vectors and equals it
 * whenever every query vector's best row sits in such a centroid, at a small share of the cost.
 */
export class PrunedMaxSim {
  private readonly dimensions: number;
  private decoded = new Float32Array(0);
  /** Per local row, the search stamp of its decoding (decode once per page and search). */
  private decodedStamp = new Int32Array(0);
  private stamp = 0;
  private groupStart = new Int32Array(0);
  private groupCentroid = new Int32Array(0);

  constructor(
    dimensions: number,
    private readonly codebook: Codebook,
    private readonly codec: ResidualCodec,
  ) {
    this.dimensions = dimensions;
  }

  /**
   * Approximate MaxSim of `query` against the page stored at rows `first .. first + rows` of `ids`
   * / `residuals` (rows sorted by centroid id). `table[c * queryCount + q]` is the cosine of
   * centroid c with query vector q.
   */
  score(
    query: Float32Array,
    queryCount: number,
    table: Float32Array,
    ids: Uint16Array,
    residuals: Uint8Array,
    first: number,
    rows: number,
    margin: number,
  ): number {
    if (rows === 0) return 0;
    const d = this.dimensions;
    this.reserve(rows);
    const groups = this.groupRows(ids, first, rows);
    const stamp = ++this.stamp;
    const starts = this.groupStart;
    const centroidOf = this.groupCentroid;
    const width = this.codec.bytesPerVector;
    const centroids = this.codebook.centroids;
    let total = 0;
    for (let q = 0; q < queryCount; q++) {
      let bestCentroid = -Infinity;
      for (let g = 0; g < groups; g++) {
        const s = table[centroidOf[g]! * queryCount + q]!;
        if (s > bestCentroid) bestCentroid = s;
      }
      const floor = bestCentroid - margin;
      const queryStart = q * d;
      let best = -Infinity;
      for (let g = 0; g < groups; g++) {
        if (table[centroidOf[g]! * queryCount + q]! < floor) continue;
        for (let row = starts[g]!; row < starts[g + 1]!; row++) {
          if (this.decodedStamp[row] !== stamp) {
            this.codec.decode(
              residuals,
              (first + row) * width,
              centroids,
              ids[first + row]!,
              this.decoded,
              row,
            );
            this.decodedStamp[row] = stamp;
          }
          const decoded = this.decoded;
          const rowStart = row * d;
          let sum = 0;
          for (let k = 0; k < d; k++) sum += query[queryStart + k]! * decoded[rowStart + k]!;
          if (sum > best) best = sum;
        }
      }
      total += best;
    }
    return total;
  }

  /** Splits the page's rows into runs of one centroid; returns the run count. */
  private groupRows(ids: Uint16Array, first: number, rows: number): number {
    let groups = 0;
    let previous = -1;
    for (let row = 0; row < rows; row++) {
      const id = ids[first + row]!;
      if (id !== previous) {
        this.groupStart[groups] = row;
        this.groupCentroid[groups] = id;
        groups++;
        previous = id;
      }
    }
    this.groupStart[groups] = rows;
    return groups;
  }

  private reserve(rows: number): void {
    if (this.decodedStamp.length >= rows) return;
    this.decoded = new Float32Array(rows * this.dimensions);
    this.decodedStamp = new Int32Array(rows);
    this.groupStart = new Int32Array(rows + 1);
    this.groupCentroid = new Int32Array(rows);
  }
}
