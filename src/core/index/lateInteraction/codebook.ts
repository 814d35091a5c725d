/**
 * A global two-level codebook of unit-length centroids, learnt by spherical k-means over a sample
 * of page vectors: a few groups, each split into its own centroids. A vector is coded by its
 * nearest group and then its nearest centroid within that group, so coding costs
 * (groups + centroids per group) dot products instead of one per centroid: what makes a codebook
 * of a thousand centroids affordable at upsert time. The candidate stage replaces every page vector
 * by its centroid.
 */
import { createBestMatch, type BestMatch } from './bestMatch';
import { nearestCentroids, sphericalKMeans } from './kmeans';
import { SeededRandom } from '../../common/seededRandom';

export interface CodebookTraining {
  /** Total centroids; split as evenly as possible into about sqrt(centroids) groups. */
  centroids: number;
  iterations: number;
  seed: number;
}

const batchRows = 512;

export class Codebook {
  readonly dimensions: number;
  /** Centroid ids run from 0 to size - 1; ids a small group did not fill have all-zero rows. */
  readonly size: number;
  /** `size x dimensions`, row `group * perGroup + j` for centroid j of a group. */
  readonly centroids: Float32Array;
  private readonly groups: Float32Array;
  private readonly groupCount: number;
  private readonly perGroup: number;
  /** Centroids actually learnt in each group (fewer when the group's sample was small). */
  private readonly filled: Int32Array;
  private readonly kernel: BestMatch;
  private queryKernel: BestMatch | null = null;

  private constructor(
    dimensions: number,
    groups: Float32Array,
    perGroup: number,
    centroids: Float32Array,
    filled: Int32Array,
    kernel: BestMatch,
  ) {
    this.dimensions = dimensions;
    this.groups = groups;
    this.groupCount = groups.length / dimensions;
    this.perGroup = perGroup;
    this.centroids = centroids;
    this.size = centroids.length / dimensions;
    this.filled = filled;
    this.kernel = kernel;
  }

  static train(
    sample: Float32Array,
    sampleRows: number,
    dimensions: number,
    training: CodebookTraining,
  ): Codebook {
    const d = dimensions;
    const random = new SeededRandom(training.seed);
    const kernel = createBestMatch(d);
    const wantedGroups = Math.max(1, Math.round(Math.sqrt(training.centroids)));
    const groups = sphericalKMeans(kernel, sample, sampleRows, d, wantedGroups, training.iterations, random);
    const groupCount = groups.length / d;
    const perGroup = Math.max(1, Math.ceil(training.centroids / groupCount));
    const membership = new Int32Array(sampleRows);
    nearestCentroids(kernel, groups, groupCount, sample, 0, sampleRows, membership);
    const centroids = new Float32Array(groupCount * perGroup * d);
    const filled = new Int32Array(groupCount);
    for (let g = 0; g < groupCount; g++) {
      const members = gatherRows(sample, d, membership, g);
      if (members.rows === 0) {
        centroids.set(groups.subarray(g * d, (g + 1) * d), g * perGroup * d);
        filled[g] = 1;
        continue;
      }
      const local = sphericalKMeans(
        kernel,
        members.data,
        members.rows,
        d,
        perGroup,
        training.iterations,
        random,
      );
      centroids.set(local, g * perGroup * d);
      filled[g] = local.length / d;
    }
    return new Codebook(d, groups, perGroup, centroids, filled, kernel);
  }

  /** Centroid id of each of `count` rows starting at `firstRow`. */
  assign(rows: Float32Array, firstRow: number, count: number, out: Int32Array): void {
    const d = this.dimensions;
    const membership = new Int32Array(Math.min(count, batchRows));
    const local = new Int32Array(Math.min(count, batchRows));
    for (let start = 0; start < count; start += batchRows) {
      const batch = Math.min(batchRows, count - start);
      nearestCentroids(this.kernel, this.groups, this.groupCount, rows, firstRow + start, batch, membership);
      const batchRowsView = rows.subarray((firstRow + start) * d, (firstRow + start + batch) * d);
      for (let g = 0; g < this.groupCount; g++) {
        const members = gatherRows(batchRowsView, d, membership.subarray(0, batch), g);
        if (members.rows === 0) continue;
        const groupStart = g * this.perGroup;
        nearestCentroids(
          this.kernel,
          this.centroids.subarray(groupStart * d, (groupStart + this.filled[g]!) * d),
          this.filled[g]!,
          members.data,
          0,
          members.rows,
          local,
        );
        members.indices.forEach((row, i) => (out[start + row] = groupStart + local[i]!));
      }
    }
  }

  /** Cosine of every centroid with every query row, centroid-major: `[c * queryCount + q]`. */
  scoreQuery(query: Float32Array, queryCount: number): Float32Array {
    const scores = new Float32Array(this.size * queryCount);
    // The centroids stay loaded as the kernel's left matrix; each query row is one right row, so
    // the best match over it is simply every centroid's cosine with it (SIMD where available).
    if (!this.queryKernel) {
      this.queryKernel = createBestMatch(this.dimensions);
      this.queryKernel.setLeft(this.centroids, this.size);
    }
    for (let q = 0; q < queryCount; q++) {
      const { max } = this.queryKernel.bestAgainst(query, q, 1);
      for (let c = 0; c < this.size; c++) scores[c * queryCount + q] = max[c]!;
    }
    return scores;
  }
}

function gatherRows(
  rows: Float32Array,
  d: number,
  membership: Int32Array,
  group: number,
): { data: Float32Array; rows: number; indices: number[] } {
  const indices: number[] = [];
  for (let i = 0; i < membership.length; i++) if (membership[i] === group) indices.push(i);
  const data = new Float32Array(indices.length * d);
  indices.forEach((row, i) => data.set(rows.subarray(row * d, (row + 1) * d), i * d));
  return { data, rows: indices.length, indices };
}
