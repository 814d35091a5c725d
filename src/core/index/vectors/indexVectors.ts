import { Index as LanceIndex, type Table } from '@lancedb/lancedb';

import { isAbortError, QuireError } from '../../../shared/errors';
import type { VectorCleanup } from '../content/indexContent';
import type { EmbedderRef } from '../meta';
import { vectorTableName, type VectorKind } from '../schema';
import { sqlIn } from '../sql';
import type { IndexTables } from '../tables';
import { columnValues, inBatches, upsertRows } from '../tableIo';
import type { AnyEmbedder, PageEmbedder, TextEmbedder } from './embedders';
import type { PageKernel, PageKernelFactory } from './pageKernel';
import { PageKernelCache } from './pageKernelCache';
import { chunkVectorWriter, pageVectorWriter, type VectorWriter } from './vectorWriters';

export interface EmbedPendingOptions {
  signal?: AbortSignal;
  batchSize?: number;
  onProgress?: (progress: { kind: VectorKind; embedderId: string; done: number; total: number }) => void;
}

export interface EmbedPendingResult {
  embedded: number;
  /** Kinds whose new embedder became active in this call. */
  activated: VectorKind[];
  /** True when every content row has vectors for every embedder that was set. */
  complete: boolean;
}

export interface EmbedderStatus {
  active: string | null;
  pending: string | null;
  /** Whether queries can use the active vectors now (its embedder is loaded). */
  searchable: boolean;
}

export interface Embedders {
  text: TextEmbedder | null;
  page: PageEmbedder | null;
}

/** One vector set per embedder, filled in the background; switching embedders never rewrites content. */
export interface VectorSets {
  /**
   * Names the embedders to use. An embedder already active keeps its vectors; a new one gets its
   * own table, filled by embedPending(), and replaces the old one only once complete. Until then
   * searches keep using the old vectors (when that embedder is still loaded) or BM25 alone.
   */
  setEmbedders(embedders: Embedders): Promise<void>;
  status(): Record<VectorKind, EmbedderStatus>;
  /**
   * Embeds content rows that lack vectors, for the active embedder (new content) and then the
   * pending one (a switch in progress), and activates the pending one once it covers everything.
   * Stops between batches when `signal` aborts; vectors written so far are kept.
   */
  embedPending(options?: EmbedPendingOptions): Promise<EmbedPendingResult>;
  /**
   * Lets searches use already loaded embedders whose vectors are the active ones, without changing
   * anything stored (a one-shot search has no business starting a switch). Returns the kinds attached.
   */
  attach(embedders: Partial<Embedders>): VectorKind[];
  /**
   * How many content rows have no vector of the active `kind` embedder yet (a writer still embedding
   * them), of how many; null without an active embedder. Reads two columns: for one-shot commands.
   */
  unembedded(kind: VectorKind): Promise<{ missing: number; total: number } | null>;
  /** Page vectors of the active page embedder per content hash: how many pages have them, and how many vectors. */
  pageVectorCounts(): Map<string, { pages: number; vectors: number }>;
}

/** What search reads: the embedders whose vectors are complete, and where those vectors are. */
export interface ActiveVectors {
  textEmbedder(): TextEmbedder | null;
  /** The active text embedder's table; null without one. */
  textTable(): Promise<Table | null>;
  pageEmbedder(): PageEmbedder | null;
  pageKernel(): PageKernel | null;
  /** The active page embedder's table (fp16 vectors per page, for re-scoring); null without one. */
  pageTable(): Promise<Table | null>;
}

export interface IndexVectorsOptions {
  createPageKernel?: PageKernelFactory;
  loadPageImage?: (relativePath: string) => Promise<Uint8Array>;
  /** A page whose images are still being drawn is embedded later, once, with them. */
  awaitingImages: (contentHash: string) => boolean;
  /** Content whose scanned pages OCR is still reading is embedded once, with their text. */
  awaitingText?: (contentHash: string) => boolean;
}

/**
 * Below this many chunk vectors a flat scan is quick enough (about 30 ms at 10,000); above it
 * optimize() builds a partitioned (IVF_FLAT) index, since a flat scan of 100,000 took 140 ms.
 * (HNSW_SQ queried faster but took 264 s to build at 100,000 here; IVF_FLAT took 4 s.)
 */
export const VECTOR_INDEX_ROWS = 20_000;

export class IndexVectors implements VectorSets, ActiveVectors, VectorCleanup {
  /** Loaded embedders matching the record's active and pending refs, per kind. */
  private readonly loaded: Record<VectorKind, { active: AnyEmbedder | null; pending: AnyEmbedder | null }> = {
    text: { active: null, pending: null },
    page: { active: null, pending: null },
  };
  private readonly kernel: PageKernelCache;
  private readonly writers: Record<VectorKind, VectorWriter>;

  constructor(
    private readonly tables: IndexTables,
    private readonly options: IndexVectorsOptions,
  ) {
    this.kernel = new PageKernelCache(options.createPageKernel);
    this.writers = {
      text: chunkVectorWriter as VectorWriter,
      page: pageVectorWriter(options.loadPageImage) as VectorWriter,
    };
  }

  /** Drops tables a crash left behind and loads the active page vectors into memory. */
  async load(): Promise<void> {
    await this.dropUnknownTables();
    await this.kernel.reload(this.tables, this.tables.meta.page.active);
  }

  setEmbedders(embedders: Embedders): Promise<void> {
    return this.tables.exclusive(async () => {
      this.tables.assertOpen();
      await this.assign('text', embedders.text);
      await this.assign('page', embedders.page);
      await this.activateIfComplete('text');
      await this.activateIfComplete('page');
    });
  }

  attach(embedders: Partial<Embedders>): VectorKind[] {
    const attached: VectorKind[] = [];
    for (const kind of ['text', 'page'] as const) {
      const embedder = embedders[kind];
      const ref = this.tables.meta[kind].active;
      if (!embedder || !ref || ref.id !== embedder.id || ref.dimensions !== embedder.dimensions) continue;
      this.loaded[kind].active = embedder;
      attached.push(kind);
    }
    return attached;
  }

  status(): Record<VectorKind, EmbedderStatus> {
    const meta = this.tables.meta;
    const status = (kind: VectorKind): EmbedderStatus => ({
      active: meta[kind].active?.id ?? null,
      pending: meta[kind].pending?.id ?? null,
      searchable: this.active(kind) !== null,
    });
    return { text: status('text'), page: status('page') };
  }

  async embedPending(options: EmbedPendingOptions = {}): Promise<EmbedPendingResult> {
    this.tables.assertOpen();
    const batchSize = Math.max(1, Math.min(512, Math.floor(options.batchSize ?? 32)));
    let embedded = 0;
    const activated: VectorKind[] = [];
    let complete = true;
    for (const kind of ['text', 'page'] as const) {
      for (const role of ['active', 'pending'] as const) {
        const ref = this.tables.meta[kind][role];
        const embedder = this.loaded[kind][role];
        if (!ref || !embedder) {
          if (ref && role === 'pending') complete = false;
          continue;
        }
        const outcome = await this.fill(kind, ref, embedder, batchSize, options);
        embedded += outcome.embedded;
        if (!outcome.complete) complete = false;
      }
      if (await this.tables.exclusive(() => this.activateIfComplete(kind))) activated.push(kind);
    }
    return { embedded, activated, complete };
  }

  // ---- what search reads ----

  textEmbedder(): TextEmbedder | null {
    return this.active('text') as TextEmbedder | null;
  }

  pageEmbedder(): PageEmbedder | null {
    return this.active('page') as PageEmbedder | null;
  }

  async textTable(): Promise<Table | null> {
    const ref = this.tables.meta.text.active;
    return ref ? this.tables.db.openTable(ref.table) : null;
  }

  pageKernel(): PageKernel | null {
    return this.kernel.kernel;
  }

  async pageTable(): Promise<Table | null> {
    const ref = this.tables.meta.page.active;
    return ref ? this.tables.db.openTable(ref.table) : null;
  }

  async unembedded(kind: VectorKind): Promise<{ missing: number; total: number } | null> {
    const ref = this.tables.meta[kind].active;
    if (!ref) return null;
    const total = (await columnValues(this.writers[kind].source(this.tables), 'id')).length;
    return { missing: (await this.missingIds(kind, ref)).length, total };
  }

  pageVectorCounts(): Map<string, { pages: number; vectors: number }> {
    const counts = new Map<string, { pages: number; vectors: number }>();
    for (const [key, vectors] of this.kernel.kernel?.entries() ?? []) {
      const hash = key.slice(0, key.lastIndexOf(':'));
      const entry = counts.get(hash) ?? { pages: 0, vectors: 0 };
      entry.pages++;
      entry.vectors += vectors;
      counts.set(hash, entry);
    }
    return counts;
  }

  // ---- keeping vectors in step with content (inside the write queue) ----

  async forgetContent(contentHashes: string[]): Promise<void> {
    if (contentHashes.length === 0) return;
    for (const batch of inBatches(contentHashes)) {
      const where = sqlIn('content_hash', batch);
      const active = this.tables.meta.page.active;
      if (this.kernel.kernel && active) {
        const table = await this.tables.db.openTable(active.table);
        this.kernel.delete(await columnValues(table, 'page_id', where));
      }
      for (const table of await this.tables.vectorTables()) await table.delete(where);
    }
  }

  async forgetPages(pageIds: string[]): Promise<void> {
    for (const batch of inBatches(pageIds)) {
      if (this.tables.meta.page.active) this.kernel.delete(batch);
      for (const table of await this.tables.vectorTables(['page']))
        await table.delete(sqlIn('page_id', batch));
    }
  }

  /** Builds the approximate index on the active text vectors once they pass `minRows`. */
  async ensureVectorIndex(minRows = VECTOR_INDEX_ROWS): Promise<void> {
    const table = await this.textTable();
    if (!table) return;
    if ((await table.listIndices()).some((index) => index.columns.includes('vector'))) return;
    if ((await table.countRows()) < minRows) return;
    await table.createIndex('vector', { config: LanceIndex.ivfFlat({ distanceType: 'cosine' }) });
  }

  dispose(): void {
    this.kernel.dispose();
    this.loaded.text = { active: null, pending: null };
    this.loaded.page = { active: null, pending: null };
  }

  // ---- internals ----

  private active(kind: VectorKind): AnyEmbedder | null {
    return this.tables.meta[kind].active ? this.loaded[kind].active : null;
  }

  private async assign(kind: VectorKind, embedder: AnyEmbedder | null): Promise<void> {
    const slot = this.tables.meta[kind];
    const loaded = this.loaded[kind];
    if (embedder !== null && (!Number.isInteger(embedder.dimensions) || embedder.dimensions <= 0)) {
      throw new QuireError('invalid_input', `Embedder ${embedder.id} reports no vector size.`);
    }
    const matches = (ref: EmbedderRef | null) =>
      ref !== null && embedder !== null && ref.id === embedder.id && ref.dimensions === embedder.dimensions;
    if (embedder === null) {
      loaded.active = null;
    } else if (matches(slot.active)) {
      loaded.active = embedder;
    }
    if (matches(slot.pending)) {
      loaded.pending = embedder;
      return;
    }
    // Anything pending that is no longer wanted is dropped, half-filled tables included.
    if (slot.pending) await this.tables.dropTable(slot.pending.table);
    loaded.pending = null;
    let pending: EmbedderRef | null = null;
    if (embedder !== null && !matches(slot.active)) {
      pending = {
        id: embedder.id,
        dimensions: embedder.dimensions,
        table: vectorTableName(kind, embedder.id, embedder.dimensions),
      };
      if (!(await this.tables.db.tableNames()).includes(pending.table)) {
        await this.tables.db.createEmptyTable(pending.table, this.writers[kind].schema(pending.dimensions));
      }
      if (kind === 'page' && slot.active === null) {
        // Nothing to keep searching meanwhile: the first page embedder is searchable as it fills.
        loaded.active = embedder;
        await this.tables.saveMeta({ ...this.tables.meta, page: { active: pending, pending: null } });
        await this.kernel.reload(this.tables, pending);
        return;
      }
      loaded.pending = embedder;
    }
    await this.tables.saveMeta({ ...this.tables.meta, [kind]: { active: slot.active, pending } });
  }

  private async fill(
    kind: VectorKind,
    ref: EmbedderRef,
    embedder: AnyEmbedder,
    batchSize: number,
    options: EmbedPendingOptions,
  ): Promise<{ embedded: number; complete: boolean }> {
    const writer = this.writers[kind];
    const missing = await this.missingIds(kind, ref);
    let done = 0;
    for (const ids of inBatches(missing, batchSize)) {
      if (options.signal?.aborted) return { embedded: done, complete: false };
      const rows = await writer
        .source(this.tables)
        .query()
        .where(sqlIn('id', ids))
        .select(writer.columns)
        .toArray();
      let vectorRows: Array<Record<string, unknown>>;
      try {
        vectorRows = await writer.embed(rows, embedder, ref.dimensions, options.signal);
      } catch (error) {
        if (isAbortError(error) || options.signal?.aborted) return { embedded: done, complete: false };
        throw error;
      }
      await this.tables.exclusive(async () => {
        // Content collected while this batch was embedding must not come back as vectors.
        const stillStored = new Set(await columnValues(writer.source(this.tables), 'id', sqlIn('id', ids)));
        const kept = vectorRows.filter((row) => stillStored.has(String(row[writer.key])));
        await upsertRows(await this.tables.db.openTable(ref.table), writer.key, kept);
        if (kind === 'page' && this.tables.meta.page.active?.table === ref.table)
          this.kernel.add(kept, ref.dimensions);
      });
      done += ids.length;
      options.onProgress?.({ kind, embedderId: ref.id, done, total: missing.length });
    }
    return { embedded: done, complete: true };
  }

  private async missingIds(kind: VectorKind, ref: EmbedderRef): Promise<string[]> {
    const writer = this.writers[kind];
    const table = await this.tables.db.openTable(ref.table);
    const have = new Set(await columnValues(table, writer.key));
    const all = await columnValues(writer.source(this.tables), 'id');
    // A page whose image is still to come is embedded once, with it.
    const waiting = (id: string) => {
      const hash = id.slice(0, id.indexOf(':'));
      return (
        (this.options.awaitingText?.(hash) ?? false) || (kind === 'page' && this.options.awaitingImages(hash))
      );
    };
    return all.filter((id) => !have.has(id) && !waiting(id));
  }

  /** Promotes the pending embedder when its vectors cover all content. Runs inside the write queue. */
  private async activateIfComplete(kind: VectorKind): Promise<boolean> {
    const slot = this.tables.meta[kind];
    if (!slot.pending || (await this.missingIds(kind, slot.pending)).length > 0) return false;
    const retired = slot.active;
    await this.tables.saveMeta({ ...this.tables.meta, [kind]: { active: slot.pending, pending: null } });
    this.loaded[kind] = { active: this.loaded[kind].pending, pending: null };
    if (retired && retired.table !== slot.pending.table) await this.tables.dropTable(retired.table);
    if (kind === 'page') await this.kernel.reload(this.tables, this.tables.meta.page.active);
    return true;
  }

  /** Vector tables of embedders the record no longer names (e.g. a crash during a switch). */
  private async dropUnknownTables(): Promise<void> {
    // Tidying is the writer's: a reader of a shared library leaves the tables as they are.
    if (this.tables.readOnly) return;
    const meta = this.tables.meta;
    const known = new Set(
      [meta.text.active, meta.text.pending, meta.page.active, meta.page.pending].map((ref) => ref?.table),
    );
    for (const name of await this.tables.db.tableNames()) {
      if ((name.startsWith('chunk_vectors__') || name.startsWith('page_vectors__')) && !known.has(name)) {
        await this.tables.dropTable(name);
      }
    }
  }
}
