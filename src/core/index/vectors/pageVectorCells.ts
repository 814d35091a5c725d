/**
 * How a page's vectors sit in one table cell: unit-length rows packed as little-endian fp16
 * (`vectors_f16`) with their count beside them (`vector_count`).
 */
import { packNormalised } from './pageKernel';

export function packHalf(vectors: Float32Array[], dimensions: number): Uint8Array {
  const half = new Float16Array(packNormalised(vectors, dimensions));
  return new Uint8Array(half.buffer, half.byteOffset, half.byteLength);
}

/** Refuses a cell whose size does not match its count (a damaged or foreign row). */
export function checkHalfCell(cell: Uint8Array, count: number, dimensions: number): void {
  if (cell.byteLength !== count * dimensions * 2) {
    throw new Error(
      `A page vector cell holds ${cell.byteLength} bytes, not ${count} x ${dimensions} fp16 values`,
    );
  }
}

/** Unpacks `count` rows; refuses a cell whose size does not match. */
export function unpackHalf(cell: Uint8Array, count: number, dimensions: number): Float32Array {
  checkHalfCell(cell, count, dimensions);
  // Copy first: a cell read from Arrow may start at an odd byte offset.
  const aligned = new Uint8Array(cell.byteLength);
  aligned.set(cell);
  return new Float32Array(new Float16Array(aligned.buffer));
}

/** The table row for a page's vectors. */
export function pageVectorRow(
  pageId: unknown,
  contentHash: unknown,
  vectors: Float32Array[],
  dimensions: number,
): Record<string, unknown> {
  return {
    page_id: pageId,
    content_hash: contentHash,
    vector_count: vectors.length,
    vectors_f16: packHalf(vectors, dimensions),
  };
}
