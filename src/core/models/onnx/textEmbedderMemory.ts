/*
 * What an ONNX text embedder's host process holds, for the memory budget and the setup's plan: the
 * model file counts several times over once ONNX Runtime has unpacked and prepared its weights, and
 * the runtime and Node hold a fixed amount besides.
 */

/**
 * Resident memory of the host per byte of an int8 model file, and what ONNX Runtime and Node hold
 * besides, measured with bge-small-en-v1.5 int8 (34 MB) after embedding 64 chunks of ~200 words.
 */
export const RESIDENT_PER_MODEL_BYTE = 3.2;
export const HOST_OVERHEAD_BYTES = 110e6;

/** What the host process is expected to hold with a model file of this size loaded and working. */
export function estimatedResidentBytes(modelBytes: number): number {
  return Math.round(modelBytes * RESIDENT_PER_MODEL_BYTE + HOST_OVERHEAD_BYTES);
}
