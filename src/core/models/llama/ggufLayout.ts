/*
 * Whether a GGUF's tensor data lies inside the file, from its checked header (ggufHeader.ts) alone. A
 * download cut short or a copy that failed half-way has a whole header but would fail, or abort, deep
 * inside llama.cpp; checked here, the user is told which file and why.
 */
/** What the layout check reads of a checked header: each tensor's place and shape, and the file's size. */
export interface GgufTensorTable {
  tensors: ReadonlyArray<{ dimensions: readonly (number | bigint)[]; ggmlType: number; fileOffset: bigint }>;
  fileBytes: number;
}

/**
 * Bytes per block and values per block of each ggml tensor type (ggml's type traits), by type id.
 * A test compares this table with the one compiled into node-llama-cpp's llama.cpp.
 */
export const GGML_TYPE_BLOCKS: Readonly<Record<number, { bytes: number; values: number }>> = {
  0: { bytes: 4, values: 1 }, // F32
  1: { bytes: 2, values: 1 }, // F16
  2: { bytes: 18, values: 32 }, // Q4_0
  3: { bytes: 20, values: 32 }, // Q4_1
  6: { bytes: 22, values: 32 }, // Q5_0
  7: { bytes: 24, values: 32 }, // Q5_1
  8: { bytes: 34, values: 32 }, // Q8_0
  9: { bytes: 36, values: 32 }, // Q8_1
  10: { bytes: 84, values: 256 }, // Q2_K
  11: { bytes: 110, values: 256 }, // Q3_K
  12: { bytes: 144, values: 256 }, // Q4_K
  13: { bytes: 176, values: 256 }, // Q5_K
  14: { bytes: 210, values: 256 }, // Q6_K
  15: { bytes: 292, values: 256 }, // Q8_K
  16: { bytes: 66, values: 256 }, // IQ2_XXS
  17: { bytes: 74, values: 256 }, // IQ2_XS
  18: { bytes: 98, values: 256 }, // IQ3_XXS
  19: { bytes: 50, values: 256 }, // IQ1_S
  20: { bytes: 18, values: 32 }, // IQ4_NL
  21: { bytes: 110, values: 256 }, // IQ3_S
  22: { bytes: 82, values: 256 }, // IQ2_S
  23: { bytes: 136, values: 256 }, // IQ4_XS
  24: { bytes: 1, values: 1 }, // I8
  25: { bytes: 2, values: 1 }, // I16
  26: { bytes: 4, values: 1 }, // I32
  27: { bytes: 8, values: 1 }, // I64
  28: { bytes: 8, values: 1 }, // F64
  29: { bytes: 56, values: 256 }, // IQ1_M
  30: { bytes: 2, values: 1 }, // BF16
  34: { bytes: 54, values: 256 }, // TQ1_0
  35: { bytes: 66, values: 256 }, // TQ2_0
  39: { bytes: 17, values: 32 }, // MXFP4
  40: { bytes: 36, values: 64 },
  41: { bytes: 18, values: 128 },
};

/** Bytes a tensor's data takes, or null for a type this table does not know. */
export function tensorDataBytes(dimensions: readonly (number | bigint)[], ggmlType: number): bigint | null {
  const block = GGML_TYPE_BLOCKS[ggmlType];
  if (!block) return null;
  const values = dimensions.reduce<bigint>((product, size) => product * BigInt(size), 1n);
  return (values / BigInt(block.values)) * BigInt(block.bytes);
}

/** Why the file cannot be loaded as it is, or null when its tensor data is whole. */
export function ggufLayoutProblem(header: GgufTensorTable): string | null {
  if (header.tensors.length === 0) return 'it is corrupt: its tensor table lists no tensors';
  let end = 0n;
  for (const tensor of header.tensors) {
    const bytes = tensorDataBytes(tensor.dimensions, tensor.ggmlType);
    // A type newer than this table still has to start inside the file.
    const tensorEnd = tensor.fileOffset + (bytes ?? 1n);
    if (tensorEnd > end) end = tensorEnd;
  }
  const size = BigInt(header.fileBytes);
  if (end > size) {
    const missing = end - size;
    return (
      `it is truncated: its tensors need ${end} bytes but the file has ${size} ` +
      `(${missing} bytes missing; an interrupted download or copy leaves files like this)`
    );
  }
  return null;
}
