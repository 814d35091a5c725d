import { LateInteractionIndex } from '../lateInteraction';
import type { EmbedderRef } from '../meta';
import type { IndexTables } from '../tables';
import type { PageKernel, PageKernelFactory } from './pageKernel';
import { unpackHalf } from './pageVectorCells';

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
      const count = Number(row.vector_count ?? 0);
      const cell = row.vectors_f16 as Uint8Array | null;
      if (count === 0 || !cell) kernel.delete(key);
      else kernel.upsert(key, unpackHalf(cell, count, dimensions), count);
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
