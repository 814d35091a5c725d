/**
 * What page search needs from a late-interaction (MaxSim) index held in memory. Vectors are
 * row-major `count x dimensions` and L2-normalised; a score is the sum over query vectors of the
 * best cosine against the page's vectors, higher is better.
 */
export interface PageKernel {
  readonly size: number;
  upsert(key: string, vectors: Float32Array, count: number): void;
  delete(key: string): void;
  /** With `allow`, only pages whose key it admits are scored (a search scope, applied before ranking). */
  search(
    query: Float32Array,
    queryCount: number,
    k: number,
    allow?: (key: string) => boolean,
  ): Array<{ key: string; score: number }>;
  /** Every stored page's key and vector count. */
  entries(): Iterable<[string, number]>;
}

export type PageKernelFactory = (options: { dimensions: number }) => PageKernel;

/** Copies vectors into one row-major array, each scaled to unit length (zero vectors stay zero). */
export function packNormalised(vectors: Float32Array[], dimensions: number): Float32Array {
  const packed = new Float32Array(vectors.length * dimensions);
  vectors.forEach((vector, row) => {
    let norm = 0;
    for (let i = 0; i < dimensions; i++) norm += (vector[i] ?? 0) ** 2;
    const scale = norm > 0 ? 1 / Math.sqrt(norm) : 0;
    for (let i = 0; i < dimensions; i++) packed[row * dimensions + i] = (vector[i] ?? 0) * scale;
  });
  return packed;
}
