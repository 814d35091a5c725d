/*
 * Turns a late-interaction model's output tensor into per-input vectors: padded positions (mask 0)
 * are dropped and every kept vector is scaled to unit length, so MaxSim is a sum of cosines whatever
 * the export already did.
 */

export interface MultiVector {
  /** `count x dimensions`, row-major, each row of length 1. */
  values: Float32Array;
  count: number;
}

/** Splits `[batch, tokens, dimensions]` output into one MultiVector per batch row, masked and normalised. */
export function maskedUnitRows(
  output: Float32Array,
  attentionMask: BigInt64Array,
  batch: number,
  tokens: number,
  dimensions: number,
): MultiVector[] {
  if (output.length !== batch * tokens * dimensions) {
    throw new Error(`expected ${batch}x${tokens}x${dimensions} output values, got ${output.length}`);
  }
  const result: MultiVector[] = [];
  for (let b = 0; b < batch; b++) {
    let count = 0;
    for (let t = 0; t < tokens; t++) if (attentionMask[b * tokens + t] !== 0n) count++;
    const values = new Float32Array(count * dimensions);
    let row = 0;
    for (let t = 0; t < tokens; t++) {
      if (attentionMask[b * tokens + t] === 0n) continue;
      const from = (b * tokens + t) * dimensions;
      let norm = 0;
      for (let k = 0; k < dimensions; k++) norm += output[from + k]! * output[from + k]!;
      const scale = norm > 0 ? 1 / Math.sqrt(norm) : 0;
      for (let k = 0; k < dimensions; k++) values[row * dimensions + k] = output[from + k]! * scale;
      row++;
    }
    result.push({ values, count });
  }
  return result;
}
