/*
 * What an ONNX text embedder's host process holds, for the memory budget and the setup's plan: the
 * model file counts several times over once ONNX Runtime has unpacked and prepared its weights, and
 * the runtime and Node hold a fixed amount besides.
 */

/**
 * Peak resident memory of the host per byte of an int8 model file, and what Node and ONNX Runtime
 * hold besides: fitted to the host's peak while embedding 64 chunks of 200 words (~300 tokens; 2
 * threads), measured at 252 MB for bge-small-en-v1.5 (34.0 MB file; e5-small-v2 256 MB) and 207 MB
 * for all-MiniLM-L6-v2 (23.0 MB). Between calls it holds 15-30 MB less.
 */
export const RESIDENT_PER_MODEL_BYTE = 4.3;
export const HOST_OVERHEAD_BYTES = 108e6;

/** What the host process is expected to hold with a model file of this size loaded and working. */
export function estimatedResidentBytes(modelBytes: number): number {
  return Math.round(modelBytes * RESIDENT_PER_MODEL_BYTE + HOST_OVERHEAD_BYTES);
}
