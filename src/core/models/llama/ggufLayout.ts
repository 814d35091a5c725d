/*
 * Whether a GGUF's tensor table is whole and its tensor data lies inside the file, read from the parsed
 * header alone. A download cut short or a copy that failed half-way passes the header parser but would
 * fail, or abort, deep inside llama.cpp; checked here, the user is told which file and why.
 */
import type { GgufFileInfo } from 'node-llama-cpp';

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

/** Why the file cannot be loaded as it is, or null when its tensor table and data are whole. */
export function ggufLayoutProblem(info: GgufFileInfo, fileBytes: number): string | null {
  // A model split over several files is checked on its first file, the one given.
  const tensors = (info.tensorInfo ?? []).filter((tensor) => tensor.filePart === 1);
  const listed = Number(info.tensorCount);
  if (tensors.length === 0) return 'it is corrupt: its tensor table lists no tensors';
  if (info.splicedParts <= 1 && tensors.length !== listed) {
    return `it is corrupt: its header announces ${listed} tensors but the tensor table holds ${tensors.length}`;
  }
  const size = BigInt(fileBytes);
  let end = 0n;
  for (const tensor of tensors) {
    if (tensor.dimensions.some((dimension) => BigInt(dimension) <= 0n)) {
      return `it is corrupt: tensor ${tensor.name} has an empty or negative dimension`;
    }
    const start = BigInt(tensor.fileOffset);
    const bytes = tensorDataBytes(tensor.dimensions, tensor.ggmlType);
    // A type newer than this table still has to start inside the file.
    const tensorEnd = start + (bytes ?? 1n);
    if (tensorEnd > end) end = tensorEnd;
  }
  if (end > size) {
    const missing = end - size;
    return (
      `it is truncated: its tensors need ${end} bytes but the file has ${size} ` +
      `(${missing} bytes missing; an interrupted download or copy leaves files like this)`
    );
  }
  return null;
}
