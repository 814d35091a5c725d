/**
 * Token pooling: a page's vectors clustered (spherical k-means, seeded with evenly spaced rows so
 * the result depends only on the page) into `count / factor` groups, each replaced by its unit-length
 * mean. Patches of the same background or the same word land together, so fewer vectors keep most
 * of what MaxSim needs.
 */
import type { BestMatch } from './bestMatch';
import { nearestCentroids } from './kmeans';
import { normalizeRows } from './vectorMath';

export interface PooledPage {
  vectors: Float32Array;
  count: number;
}

export function poolPage(
  kernel: BestMatch,
  vectors: Float32Array,
  count: number,
  dimensions: number,
  factor: number,
  iterations = 1,
): PooledPage {
  const d = dimensions;
  const clusters = Math.ceil(count / factor);
  if (factor <= 1 || clusters >= count) return { vectors: vectors.slice(0, count * d), count };
  let centres = new Float32Array(clusters * d);
  for (let c = 0; c < clusters; c++) {
    const row = Math.floor((c * count) / clusters);
    centres.set(vectors.subarray(row * d, (row + 1) * d), c * d);
  }
  const assignment = new Int32Array(count);
  let used = clusters;
  for (let iteration = 0; iteration < iterations; iteration++) {
    nearestCentroids(kernel, centres, used, vectors, 0, count, assignment);
    const sums = new Float32Array(used * d);
    const sizes = new Int32Array(used);
    for (let row = 0; row < count; row++) {
      const c = assignment[row]!;
      sizes[c]!++;
      for (let k = 0; k < d; k++) sums[c * d + k]! += vectors[row * d + k]!;
    }
    // Empty groups are dropped: the page simply keeps fewer vectors.
    let kept = 0;
    for (let c = 0; c < used; c++) {
      if (sizes[c] === 0) continue;
      if (kept !== c) sums.copyWithin(kept * d, c * d, (c + 1) * d);
      kept++;
    }
    used = kept;
    centres = sums.subarray(0, kept * d);
    normalizeRows(centres, d, kept);
  }
  return { vectors: centres.slice(), count: used };
}
