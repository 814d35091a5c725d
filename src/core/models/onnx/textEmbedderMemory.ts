/*
 * What an ONNX text embedder's host process holds, for the memory budget and the setup's plan: the
 * model file counts several times over once ONNX Runtime has unpacked and prepared its weights, and
 * the runtime and Node hold a fixed amount besides.
 */

/**
 * Peak resident memory of the host per byte of an int8 model file, and what Node and ONNX Runtime
 * hold besides: fitted to the host's peak while embedding 64 chunks of ~200 words (2 threads, runs of
 * at most 2,048 tokens), measured at 286 MB for bge-small-en-v1.5 (34.0 MB file; e5-small-v2 278 MB)
 * and 247 MB for all-MiniLM-L6-v2 (23.0 MB). Between batches it holds about 60 MB less.
 */
export const RESIDENT_PER_MODEL_BYTE = 3.5;
export const HOST_OVERHEAD_BYTES = 167e6;

/** What the host process is expected to hold with a model file of this size loaded and working. */
export function estimatedResidentBytes(modelBytes: number): number {
  return Math.round(modelBytes * RESIDENT_PER_MODEL_BYTE + HOST_OVERHEAD_BYTES);
}
