import { LateInteractionIndex } from '../lateInteraction';
import type { EmbedderRef } from '../meta';
import type { IndexTables } from '../tables';
import { flattenMultiVector } from '../tableIo';
import { packNormalised, type PageKernel, type PageKernelFactory } from './pageKernel';

/**
 * The active page embedder's vectors held in memory for MaxSim search. A cache of its vector
 * table: rebuilt from the table at open and when the embedder changes, kept in step by every write.
 */
export class PageKernelCache {
  private current: PageKernel | null = null;

  constructor(private readonly create: PageKernelFactory = (options) => new LateInteractionIndex(options)) {}

  get kernel(): PageKernel | null {
    return this.current;
  }

  async reload(tables: IndexTables, ref: EmbedderRef | null): Promise<void> {
    if (!ref) {
      this.current = null;
      return;
    }
    this.current = this.create({ dimensions: ref.dimensions });
    const table = await tables.db.openTable(ref.table);
    for await (const batch of table.query()) {
      this.add(batch.toArray() as Array<Record<string, unknown>>, ref.dimensions);
    }
  }

  /** Adds or replaces pages from vector rows (built here, or read back from the table). */
  add(rows: Array<Record<string, unknown>>, dimensions: number): void {
    const kernel = this.current;
    if (!kernel) return;
    for (const row of rows) {
      const key = String(row.page_id);
      const cell = row.vectors;
      // Rows built here hold Float32Arrays; rows read back hold Arrow vectors.
      const { values, count } = Array.isArray(cell)
        ? { values: packNormalised(cell as Float32Array[], dimensions), count: cell.length }
        : flattenMultiVector(cell, dimensions);
      if (count === 0) kernel.delete(key);
      else kernel.upsert(key, Array.isArray(cell) ? values : normaliseRows(values, count, dimensions), count);
    }
  }

  delete(keys: Iterable<string>): void {
    if (!this.current) return;
    for (const key of keys) this.current.delete(key);
  }

  dispose(): void {
    this.current = null;
  }
}

function normaliseRows(values: Float32Array, count: number, dimensions: number): Float32Array {
  const rows: Float32Array[] = [];
  for (let i = 0; i < count; i++) rows.push(values.subarray(i * dimensions, (i + 1) * dimensions));
  return packNormalised(rows, dimensions);
}
