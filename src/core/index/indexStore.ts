import { availableParallelism } from 'node:os';

import { connect, Index, type Connection, type Table } from '@lancedb/lancedb';

import type { PageImageRef, ParsedDocument } from '../documents/types';
import type { PageEmbedder, TextEmbedder } from '../models/types';
import type { DocumentState } from '../../shared/domain/library';
import type { SearchHit, SearchMode } from '../../shared/domain/search';
import { isAbortError, QuireError } from '../../shared/errors';
import { assertContentHash, chunkRows, imageColumns, pageRows } from './contentRows';
import { reciprocalRankFusion } from './fusion';
import { LateInteractionIndex } from './lateInteraction';
import { freshMeta, openMetaTable, readMeta, writeMeta, type EmbedderRef, type IndexMeta } from './meta';
import { migrate } from './migrations';
import { packNormalised, type PageKernel, type PageKernelFactory } from './pageKernel';
import {
  documentFromRow,
  documentToRow,
  IndexedDocument,
  parseBoxes,
  type IndexStats,
  type StoredChunk,
  type StoredPage,
} from './records';
import {
  chunksSchema,
  chunkVectorsSchema,
  documentsSchema,
  pageId,
  pagesSchema,
  pageVectorsSchema,
  SCHEMA_VERSION,
  TABLES,
  vectorTableName,
  type VectorKind,
} from './schema';
import { ftsQuery, snippetAround } from './searchText';
import { sqlIn, sqlNotIn, sqlString } from './sql';
import { columnValues, flattenMultiVector, inBatches, replaceScope, upsertRows } from './tableIo';

/*
 * The LanceDB index: documents, their content (chunks and pages, keyed by content hash) and the
 * vectors of each embedder. One process owns an index folder; writes go through one queue.
 *
 * Crash rule: content rows are written first and become visible only once a `documents` row in
 * state `indexed` points at their hash. Content nobody points at is garbage, removed on open and by
 * collectGarbage(), so a crash between the two writes leaves nothing visible and nothing duplicated.
 */

export interface OpenIndexOptions {
  /** A folder (the app passes `<dataDir>/index`) or any LanceDB URI. */
  uri: string;
  /** Builds the in-memory MaxSim index for page search; the bundled kernel by default. */
  createPageKernel?: PageKernelFactory;
  /** Reads a page image (a path from PageImageRef) for page embedders that look at pixels. */
  loadPageImage?: (relativePath: string) => Promise<Uint8Array>;
  /** Chunk vectors past which optimize() builds an approximate vector index (default 20,000). */
  vectorIndexRows?: number;
}

export interface SearchFilter {
  documentIds?: string[];
  rootIds?: string[];
}

export interface ChunkSearchOptions {
  k?: number;
  /** Defaults to hybrid when a text embedder is active, BM25 otherwise. */
  mode?: 'bm25' | 'dense' | 'hybrid';
  filter?: SearchFilter;
}

export interface PageSearchOptions {
  k?: number;
  filter?: SearchFilter;
}

export interface PutContentOptions {
  /** The file's name, indexed with every chunk so BM25 can match it. */
  fileName?: string;
}

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

export interface OptimizeOptions {
  /** Versions older than this are removed; default: one minute ago. */
  cleanupOlderThan?: Date;
}

export interface OptimizeResult {
  versionsRemoved: number;
  bytesRemoved: number;
}

const DEFAULT_K = 10;
const MAX_K = 1000;
/** Past this many hashes an IN list costs more than it saves: filter after the query instead. */
const MAX_FILTER_HASHES = 2000;
/**
 * Rows the full-text index has not absorbed are scanned at query time, which is slow (about 1 s per
 * query with 9,000 of them), so writes fold them in past this many. Folding rewrites the table,
 * so the threshold also grows with the table (a quarter of it) to keep the total work linear.
 */
const FTS_REFRESH_ROWS = 2000;
const FTS_REFRESH_FRACTION = 0.1;
/**
 * Below this many chunk vectors a flat scan is quick enough (about 30 ms at 10,000); above it
 * optimize() builds a partitioned (IVF_FLAT) index, since a flat scan of 100,000 took 140 ms.
 * (HNSW_SQ queried faster but took 264 s to build at 100,000 here; IVF_FLAT took 4 s.)
 */
const VECTOR_INDEX_ROWS = 20_000;
/** Candidates each list brings to hybrid fusion. */
const FUSION_DEPTH = 50;

interface Scope {
  /** Prefilter for content tables, null when every row qualifies. */
  where: string | null;
  allowed: Set<string>;
  /** Whether `where` alone guarantees visibility (otherwise results are filtered afterwards). */
  exact: boolean;
}

interface ChunkRow {
  id: string;
  content_hash: string;
  page: number;
  text: string;
  boxes: string;
}

type Embedders = { text: TextEmbedder | null; page: PageEmbedder | null };

export class IndexStore {
  private readonly documentsById = new Map<string, IndexedDocument>();
  /** Hashes written in this session whose documents row has not been written yet: never garbage. */
  private readonly inFlight = new Set<string>();
  /** Content whose page images are being drawn (see `expectPageImages`). */
  private readonly imagesToCome = new Set<string>();
  /** Loaded embedders matching meta's active and pending refs, per kind. */
  private readonly loaded: Record<VectorKind, { active: unknown; pending: unknown }> = {
    text: { active: null, pending: null },
    page: { active: null, pending: null },
  };
  private pageKernel: PageKernel | null = null;
  private ftsReady = false;
  private unindexedChunks = 0;
  private pagesIndexed = false;
  private queue: Promise<unknown> = Promise.resolve();
  private hitOwners: Map<string, IndexedDocument[]> | null = null;
  private closed = false;
  /** Content hashes deleted while opening (left by a crash): the caller deletes their page images. */
  collectedAtOpen: readonly string[] = [];

  private constructor(
    private readonly db: Connection,
    private readonly metaTable: Table,
    private meta: IndexMeta,
    private readonly documents: Table,
    private readonly chunks: Table,
    private readonly pages: Table,
    private readonly options: OpenIndexOptions,
  ) {}

  static async open(options: OpenIndexOptions): Promise<IndexStore> {
    if (!options.uri) throw new QuireError('invalid_input', 'The index needs a folder or URI.');
    widenLanceThreadPool();
    const db = await connect(options.uri, { readConsistencyInterval: 0 });
    try {
      const metaTable = await openMetaTable(db);
      let meta = (await readMeta(metaTable)) ?? freshMeta(SCHEMA_VERSION);
      if (meta.schemaVersion > SCHEMA_VERSION) {
        throw new QuireError(
          'unsupported',
          `This index was written by a newer Quire (schema ${meta.schemaVersion}); this version reads up to ${SCHEMA_VERSION}.`,
        );
      }
      await migrate(db, meta.schemaVersion, SCHEMA_VERSION, async (version) => {
        meta = { ...meta, schemaVersion: version };
        await writeMeta(metaTable, meta);
      });
      await writeMeta(metaTable, meta);
      const names = await db.tableNames();
      const table = async (name: string, schema: typeof chunksSchema) =>
        names.includes(name) ? db.openTable(name) : db.createEmptyTable(name, schema);
      const store = new IndexStore(
        db,
        metaTable,
        meta,
        await table(TABLES.documents, documentsSchema),
        await table(TABLES.chunks, chunksSchema),
        await table(TABLES.pages, pagesSchema),
        options,
      );
      await store.load();
      return store;
    } catch (error) {
      db.close();
      throw error;
    }
  }

  private async load(): Promise<void> {
    for await (const batch of this.documents.query()) {
      for (const row of batch.toArray()) {
        const document = documentFromRow(row as Record<string, unknown>);
        this.documentsById.set(document.id, document);
      }
    }
    await this.dropUnknownVectorTables();
    this.collectedAtOpen = await this.removeGarbage();
    const fts = (await this.chunks.listIndices()).find((index) => index.indexType === 'FTS');
    this.ftsReady = fts !== undefined;
    this.pagesIndexed = (await this.pages.listIndices()).length > 0;
    this.unindexedChunks = fts ? ((await this.chunks.indexStats(fts.name))?.numUnindexedRows ?? 0) : 0;
    await this.ensureIndexes();
    await this.reloadPageKernel();
  }

  // ---- documents ----

  listDocuments(): IndexedDocument[] {
    return [...this.documentsById.values()].sort((a, b) => a.path.localeCompare(b.path));
  }

  /** An indexed document holding this content, if any (a renamed or copied file finds its twin). */
  indexedWithContent(contentHash: string): IndexedDocument | null {
    for (const document of this.documentsById.values()) {
      if (document.contentHash === contentHash && document.state === 'indexed') return document;
    }
    return null;
  }

  getDocument(id: string): IndexedDocument | null {
    return this.documentsById.get(id) ?? null;
  }

  /**
   * Writes a document's row: the commit point that makes its content visible when `state` is
   * `indexed`. Returns content hashes no document uses any more (now deleted), so the caller can
   * delete their page images.
   */
  upsertDocument(document: IndexedDocument): Promise<string[]> {
    const parsed = IndexedDocument.safeParse(document);
    if (!parsed.success) {
      return Promise.reject(
        new QuireError('invalid_input', 'This document record is not valid.', parsed.error.issues),
      );
    }
    return this.exclusive(() => this.writeDocument(parsed.data));
  }

  setDocumentState(id: string, state: DocumentState, error: string | null = null): Promise<IndexedDocument> {
    return this.exclusive(async () => {
      const current = this.requireDocument(id);
      const next: IndexedDocument = {
        ...current,
        state,
        error,
        indexedAt: state === 'indexed' ? Date.now() : current.indexedAt,
      };
      await this.writeDocument(next);
      return next;
    });
  }

  /** Removes a document; returns the content hashes that went with it (none if another file shares them). */
  removeDocument(id: string): Promise<string[]> {
    return this.exclusive(async () => {
      this.assertOpen();
      const current = this.documentsById.get(id);
      if (!current) return [];
      await this.documents.delete(`id = ${sqlString(id)}`);
      this.documentsById.delete(id);
      this.hitOwners = null;
      return current.contentHash ? this.releaseIfUnused([current.contentHash]) : [];
    });
  }

  private async writeDocument(document: IndexedDocument): Promise<string[]> {
    this.assertOpen();
    const previous = this.documentsById.get(document.id);
    await upsertRows(this.documents, 'id', [documentToRow(document)]);
    this.documentsById.set(document.id, document);
    this.hitOwners = null;
    if (document.contentHash) this.inFlight.delete(document.contentHash);
    const replaced = previous?.contentHash;
    return replaced && replaced !== document.contentHash ? this.releaseIfUnused([replaced]) : [];
  }

  private requireDocument(id: string): IndexedDocument {
    this.assertOpen();
    const document = this.documentsById.get(id);
    if (!document) throw new QuireError('not_found', `No document with id "${id}" in the index.`);
    return document;
  }

  // ---- content ----

  /** Whether the content of this hash is fully stored (pages are written last). */
  async hasContent(contentHash: string): Promise<boolean> {
    assertContentHash(contentHash);
    this.assertOpen();
    return (await this.pages.countRows(`content_hash = ${sqlString(contentHash)}`)) > 0;
  }

  /**
   * Stores the chunks and pages of one file's content. Idempotent: a retry after a crash leaves
   * exactly the same rows. Not visible to search until a documents row in state `indexed` names
   * the hash.
   */
  async putContent(
    contentHash: string,
    parsed: ParsedDocument,
    images: PageImageRef[] = [],
    options: PutContentOptions = {},
  ): Promise<void> {
    assertContentHash(contentHash);
    if (!parsed || !Array.isArray(parsed.pages) || !Array.isArray(parsed.chunks)) {
      throw new QuireError('invalid_input', 'Cannot index this document: it has no pages list.');
    }
    const chunks = chunkRows(contentHash, parsed, options.fileName ?? null);
    const pages = pageRows(contentHash, parsed, images);
    return this.exclusive(async () => {
      this.assertOpen();
      const scope = `content_hash = ${sqlString(contentHash)}`;
      const rewrite = (await this.pages.countRows(scope)) > 0;
      this.inFlight.add(contentHash);
      await replaceScope(this.chunks, 'id', chunks, scope);
      // Pages last: their presence is what hasContent() reports.
      await replaceScope(this.pages, 'id', pages, scope);
      // Old vectors may not match rewritten chunks: drop them so embedPending recomputes.
      if (rewrite) await this.deleteVectors([contentHash]);
      this.unindexedChunks += chunks.length;
      await this.ensureIndexes();
    });
  }

  /**
   * Marks content whose page images are being drawn: its pages are not embedded until
   * `pageImagesSettled()`, so a page embedder sees each page once, with its image.
   */
  expectPageImages(contentHash: string): void {
    this.imagesToCome.add(contentHash);
  }

  pageImagesSettled(contentHash: string): void {
    this.imagesToCome.delete(contentHash);
  }

  /** How many pages of this content have no image yet. */
  async pagesWithoutImages(contentHash: string): Promise<number> {
    assertContentHash(contentHash);
    this.assertOpen();
    return this.pages.countRows(`content_hash = ${sqlString(contentHash)} AND image_full IS NULL`);
  }

  /** Content hashes with at least one page that has no image yet. */
  async contentMissingImages(): Promise<string[]> {
    this.assertOpen();
    return [...new Set(await columnValues(this.pages, 'content_hash', 'image_full IS NULL'))].sort();
  }

  /**
   * Points pages of stored content at their images, drawn after the text was indexed. Pages not in
   * `images` keep what they had. Page vectors of that content are dropped, so they are embedded
   * again with the image. Content no longer stored is left alone.
   */
  setPageImages(contentHash: string, images: PageImageRef[]): Promise<void> {
    assertContentHash(contentHash);
    return this.exclusive(async () => {
      this.assertOpen();
      const scope = `content_hash = ${sqlString(contentHash)}`;
      const imageOf = new Map(images.map((image) => [image.page, image]));
      const rows = (await this.pages.query().where(scope).toArray()) as Array<Record<string, unknown>>;
      const changed = rows
        .filter((row) => {
          const image = imageOf.get(Number(row.page));
          return image !== undefined && image.full !== row.image_full;
        })
        .map((row) => ({
          id: row.id,
          content_hash: row.content_hash,
          page: row.page,
          width: row.width,
          height: row.height,
          needs_ocr: row.needs_ocr,
          ...imageColumns(imageOf.get(Number(row.page))),
          text: row.text,
        }));
      if (changed.length === 0) return;
      await upsertRows(this.pages, 'id', changed);
      await this.deletePageVectors(changed.map((row) => String(row.id)));
    });
  }

  async getChunk(chunkId: string): Promise<StoredChunk> {
    this.assertOpen();
    const rows = await this.chunks
      .query()
      .where(`id = ${sqlString(String(chunkId))}`)
      .limit(1)
      .toArray();
    const row = rows[0] as Record<string, unknown> | undefined;
    const owner = row ? this.ownersOf(String(row.content_hash))[0] : undefined;
    if (!row || !owner) throw new QuireError('not_found', `No chunk "${chunkId}" in the index.`);
    return {
      chunkId: String(row.id),
      documentId: owner.id,
      path: owner.path,
      page: Number(row.page),
      text: String(row.text),
      heading: (row.heading as string | null) ?? null,
      charStart: Number(row.char_start),
      charEnd: Number(row.char_end),
      boxes: parseBoxes(row.boxes),
    };
  }

  async getPage(documentId: string, page: number): Promise<StoredPage> {
    const document = this.requireDocument(documentId);
    if (!Number.isInteger(page) || page < 1)
      throw new QuireError('invalid_input', 'Pages are numbered from 1.');
    const rows = document.contentHash
      ? await this.pages
          .query()
          .where(`id = ${sqlString(pageId(document.contentHash, page))}`)
          .limit(1)
          .toArray()
      : [];
    const row = rows[0] as Record<string, unknown> | undefined;
    if (!row) throw new QuireError('not_found', `Page ${page} of ${document.path} is not in the index.`);
    const full = row.image_full as string | null;
    return {
      documentId,
      path: document.path,
      page,
      width: Number(row.width),
      height: Number(row.height),
      needsOcr: Boolean(row.needs_ocr),
      text: String(row.text),
      image:
        full === null
          ? null
          : {
              full,
              thumbnail: String(row.image_thumbnail ?? full),
              width: Number(row.image_width),
              height: Number(row.image_height),
            },
    };
  }

  // ---- garbage ----

  /** Deletes content that no documents row references; returns those hashes (for page-image cleanup). */
  collectGarbage(): Promise<string[]> {
    return this.exclusive(() => this.removeGarbage());
  }

  private async removeGarbage(): Promise<string[]> {
    this.assertOpen();
    const stored = new Set<string>();
    for (const table of [this.chunks, this.pages, ...(await this.vectorTables())]) {
      for (const hash of await columnValues(table, 'content_hash')) stored.add(hash);
    }
    const used = this.referencedHashes();
    const garbage = [...stored].filter((hash) => !used.has(hash)).sort();
    await this.deleteContent(garbage);
    return garbage;
  }

  private referencedHashes(): Set<string> {
    const used = new Set(this.inFlight);
    for (const document of this.documentsById.values())
      if (document.contentHash) used.add(document.contentHash);
    return used;
  }

  private async releaseIfUnused(hashes: string[]): Promise<string[]> {
    const used = this.referencedHashes();
    const unused = hashes.filter((hash) => !used.has(hash));
    await this.deleteContent(unused);
    return unused;
  }

  private async deleteContent(hashes: string[]): Promise<void> {
    for (const batch of inBatches(hashes)) {
      const where = sqlIn('content_hash', batch);
      await this.chunks.delete(where);
      await this.pages.delete(where);
    }
    await this.deleteVectors(hashes);
  }

  private async deleteVectors(hashes: string[]): Promise<void> {
    if (hashes.length === 0) return;
    for (const batch of inBatches(hashes)) {
      const where = sqlIn('content_hash', batch);
      if (this.pageKernel && this.meta.page.active) {
        const table = await this.db.openTable(this.meta.page.active.table);
        for (const key of await columnValues(table, 'page_id', where)) this.pageKernel.delete(key);
      }
      for (const table of await this.vectorTables()) await table.delete(where);
    }
  }

  private async deletePageVectors(pageIds: string[]): Promise<void> {
    for (const batch of inBatches(pageIds)) {
      if (this.pageKernel && this.meta.page.active) for (const id of batch) this.pageKernel.delete(id);
      for (const table of await this.vectorTables(['page'])) await table.delete(sqlIn('page_id', batch));
    }
  }

  // ---- embedders ----

  /**
   * Names the embedders to use. An embedder already active keeps its vectors; a new one gets its
   * own tables, filled by embedPending(), and replaces the old one only once complete. Until then
   * searches keep using the old vectors (when that embedder is still loaded) or BM25 alone.
   */
  setEmbedders(embedders: Embedders): Promise<void> {
    return this.exclusive(async () => {
      this.assertOpen();
      await this.assignEmbedder('text', embedders.text);
      await this.assignEmbedder('page', embedders.page);
      await this.activateIfComplete('text');
      await this.activateIfComplete('page');
    });
  }

  embedderStatus(): Record<VectorKind, EmbedderStatus> {
    const status = (kind: VectorKind): EmbedderStatus => ({
      active: this.meta[kind].active?.id ?? null,
      pending: this.meta[kind].pending?.id ?? null,
      searchable: this.activeEmbedder(kind) !== null,
    });
    return { text: status('text'), page: status('page') };
  }

  private async assignEmbedder(
    kind: VectorKind,
    embedder: TextEmbedder | PageEmbedder | null,
  ): Promise<void> {
    const slot = this.meta[kind];
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
    if (slot.pending) await this.dropTable(slot.pending.table);
    loaded.pending = null;
    let pending: EmbedderRef | null = null;
    if (embedder !== null && !matches(slot.active)) {
      pending = {
        id: embedder.id,
        dimensions: embedder.dimensions,
        table: vectorTableName(kind, embedder.id, embedder.dimensions),
      };
      await this.ensureVectorTable(kind, pending);
      loaded.pending = embedder;
    }
    await this.saveMeta({ ...this.meta, [kind]: { active: slot.active, pending } });
  }

  /**
   * Embeds content rows that lack vectors, for the active embedder (new content) and then the
   * pending one (a switch in progress), and activates the pending one once it covers everything.
   * Stops between batches when `signal` aborts; vectors written so far are kept.
   */
  async embedPending(options: EmbedPendingOptions = {}): Promise<EmbedPendingResult> {
    this.assertOpen();
    const batchSize = Math.max(1, Math.min(512, Math.floor(options.batchSize ?? 32)));
    let embedded = 0;
    const activated: VectorKind[] = [];
    let complete = true;
    for (const kind of ['text', 'page'] as const) {
      for (const role of ['active', 'pending'] as const) {
        const ref = this.meta[kind][role];
        const embedder = this.loaded[kind][role];
        if (!ref || !embedder) {
          if (ref && role === 'pending') complete = false;
          continue;
        }
        const outcome = await this.fillVectors(kind, ref, embedder, batchSize, options);
        embedded += outcome.embedded;
        if (!outcome.complete) complete = false;
      }
      if (await this.exclusive(() => this.activateIfComplete(kind))) activated.push(kind);
    }
    return { embedded, activated, complete };
  }

  private async fillVectors(
    kind: VectorKind,
    ref: EmbedderRef,
    embedder: unknown,
    batchSize: number,
    options: EmbedPendingOptions,
  ): Promise<{ embedded: number; complete: boolean }> {
    const missing = await this.missingVectorIds(kind, ref);
    let done = 0;
    for (const ids of inBatches(missing, batchSize)) {
      if (options.signal?.aborted) return { embedded: done, complete: false };
      const rows = await (kind === 'text' ? this.chunks : this.pages)
        .query()
        .where(sqlIn('id', ids))
        .select(
          kind === 'text'
            ? ['id', 'content_hash', 'search_text']
            : ['id', 'content_hash', 'text', 'image_full'],
        )
        .toArray();
      let vectorRows: Array<Record<string, unknown>>;
      try {
        vectorRows =
          kind === 'text'
            ? await this.embedChunks(rows, embedder as TextEmbedder, options.signal)
            : await this.embedPages(rows, embedder as PageEmbedder, ref.dimensions, options.signal);
      } catch (error) {
        if (isAbortError(error) || options.signal?.aborted) return { embedded: done, complete: false };
        throw error;
      }
      await this.exclusive(async () => {
        // Content collected while this batch was embedding must not come back as vectors.
        const stillStored = new Set(
          await columnValues(kind === 'text' ? this.chunks : this.pages, 'id', sqlIn('id', ids)),
        );
        const key = kind === 'text' ? 'chunk_id' : 'page_id';
        const kept = vectorRows.filter((row) => stillStored.has(String(row[key])));
        await upsertRows(await this.db.openTable(ref.table), key, kept);
        if (kind === 'page' && this.meta.page.active?.table === ref.table)
          this.addToKernel(kept, ref.dimensions);
      });
      done += ids.length;
      options.onProgress?.({ kind, embedderId: ref.id, done, total: missing.length });
    }
    return { embedded: done, complete: true };
  }

  private async embedChunks(
    rows: Array<Record<string, unknown>>,
    embedder: TextEmbedder,
    signal: AbortSignal | undefined,
  ): Promise<Array<Record<string, unknown>>> {
    const vectors = await embedder.embed(
      rows.map((row) => String(row.search_text)),
      signal ? { signal } : {},
    );
    if (vectors.length !== rows.length) {
      throw new QuireError(
        'model_failed',
        `Embedder ${embedder.id} returned ${vectors.length} vectors for ${rows.length} texts.`,
      );
    }
    return rows.map((row, i) => ({
      chunk_id: row.id,
      content_hash: row.content_hash,
      vector: this.checkedVector(vectors[i]!, embedder.dimensions, embedder.id),
    }));
  }

  private async embedPages(
    rows: Array<Record<string, unknown>>,
    embedder: PageEmbedder,
    dimensions: number,
    signal: AbortSignal | undefined,
  ): Promise<Array<Record<string, unknown>>> {
    const out: Array<Record<string, unknown>> = [];
    for (const row of rows) {
      const image = row.image_full as string | null;
      const load = this.options.loadPageImage;
      const segments = String(row.text)
        .split(/\n+/)
        .map((line) => line.trim())
        .filter(Boolean);
      const vectors = await embedder.embedPage(
        { segments, ...(image && load ? { loadImage: () => load(image) } : {}) },
        signal ? { signal } : {},
      );
      out.push({
        page_id: row.id,
        content_hash: row.content_hash,
        vectors: (vectors ?? []).map((vector) => this.checkedVector(vector, dimensions, embedder.id)),
      });
    }
    return out;
  }

  private checkedVector(vector: Float32Array, dimensions: number, embedderId: string): Float32Array {
    if (vector.length !== dimensions || !vector.every(Number.isFinite)) {
      throw new QuireError(
        'model_failed',
        `Embedder ${embedderId} returned a vector that is not ${dimensions} finite numbers.`,
      );
    }
    return vector;
  }

  private async missingVectorIds(kind: VectorKind, ref: EmbedderRef): Promise<string[]> {
    const table = await this.db.openTable(ref.table);
    const have = new Set(await columnValues(table, kind === 'text' ? 'chunk_id' : 'page_id'));
    const all = await columnValues(kind === 'text' ? this.chunks : this.pages, 'id');
    // A page whose image is still to come is embedded once, with it.
    const waiting = (id: string) =>
      kind === 'page' && this.imagesToCome.has(id.slice(0, id.lastIndexOf(':')));
    return all.filter((id) => !have.has(id) && !waiting(id));
  }

  /** Promotes the pending embedder when its vectors cover all content. Runs inside the write queue. */
  private async activateIfComplete(kind: VectorKind): Promise<boolean> {
    const slot = this.meta[kind];
    if (!slot.pending || (await this.missingVectorIds(kind, slot.pending)).length > 0) return false;
    const retired = slot.active;
    await this.saveMeta({ ...this.meta, [kind]: { active: slot.pending, pending: null } });
    this.loaded[kind] = { active: this.loaded[kind].pending, pending: null };
    if (retired && retired.table !== slot.pending.table) await this.dropTable(retired.table);
    if (kind === 'page') await this.reloadPageKernel();
    return true;
  }

  private activeEmbedder(kind: 'text'): TextEmbedder | null;
  private activeEmbedder(kind: 'page'): PageEmbedder | null;
  private activeEmbedder(kind: VectorKind): TextEmbedder | PageEmbedder | null;
  private activeEmbedder(kind: VectorKind): TextEmbedder | PageEmbedder | null {
    return this.meta[kind].active ? (this.loaded[kind].active as TextEmbedder | PageEmbedder | null) : null;
  }

  private async ensureVectorTable(kind: VectorKind, ref: EmbedderRef): Promise<void> {
    if ((await this.db.tableNames()).includes(ref.table)) return;
    const schema = kind === 'text' ? chunkVectorsSchema(ref.dimensions) : pageVectorsSchema(ref.dimensions);
    await this.db.createEmptyTable(ref.table, schema);
  }

  private async allTables(): Promise<Table[]> {
    return [this.metaTable, this.documents, this.chunks, this.pages, ...(await this.vectorTables())];
  }

  private async vectorTables(kinds: readonly VectorKind[] = ['text', 'page']): Promise<Table[]> {
    const refs = kinds.flatMap((kind) => [this.meta[kind].active, this.meta[kind].pending]);
    const names = new Set(await this.db.tableNames());
    return Promise.all(
      refs
        .filter((ref): ref is EmbedderRef => ref !== null && names.has(ref.table))
        .map((ref) => this.db.openTable(ref.table)),
    );
  }

  /** Vector tables of embedders the metadata no longer names (e.g. a crash during a switch). */
  private async dropUnknownVectorTables(): Promise<void> {
    const known = new Set(
      [this.meta.text.active, this.meta.text.pending, this.meta.page.active, this.meta.page.pending].map(
        (ref) => ref?.table,
      ),
    );
    for (const name of await this.db.tableNames()) {
      if ((name.startsWith('chunk_vectors__') || name.startsWith('page_vectors__')) && !known.has(name)) {
        await this.dropTable(name);
      }
    }
  }

  private async dropTable(name: string): Promise<void> {
    if ((await this.db.tableNames()).includes(name)) await this.db.dropTable(name);
  }

  private async saveMeta(meta: IndexMeta): Promise<void> {
    await writeMeta(this.metaTable, meta);
    this.meta = meta;
  }

  // ---- page kernel ----

  private async reloadPageKernel(): Promise<void> {
    const ref = this.meta.page.active;
    if (!ref) {
      this.pageKernel = null;
      return;
    }
    const create = this.options.createPageKernel ?? ((options) => new LateInteractionIndex(options));
    this.pageKernel = create({ dimensions: ref.dimensions });
    const table = await this.db.openTable(ref.table);
    for await (const batch of table.query()) {
      this.addToKernel(batch.toArray() as Array<Record<string, unknown>>, ref.dimensions);
    }
  }

  private addToKernel(rows: Array<Record<string, unknown>>, dimensions: number): void {
    const kernel = this.pageKernel;
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

  // ---- search ----

  async searchChunks(query: string, options: ChunkSearchOptions = {}): Promise<SearchHit[]> {
    this.assertOpen();
    const k = checkK(options.k);
    const words = ftsQuery(typeof query === 'string' ? query : '');
    if (!words) throw new QuireError('invalid_input', 'Type some words to search for.');
    const embedder = this.activeEmbedder('text');
    const requested = options.mode ?? (embedder ? 'hybrid' : 'bm25');
    const mode: SearchMode = embedder ? requested : 'bm25';
    const scope = this.scopeFor(options.filter);
    if (scope.allowed.size === 0) return [];

    if (mode === 'bm25') {
      const rows = await this.bm25(words, scope, k);
      return rows.slice(0, k).map((row) => this.chunkHit(row, row.score, query, mode, options.filter));
    }
    const queryVector = await this.embedQuery(embedder!, query);
    if (mode === 'dense') {
      const ranked = await this.dense(queryVector, scope, k);
      const rows = await this.chunksById(ranked.map((hit) => hit.id));
      return ranked
        .filter((hit) => rows.has(hit.id))
        .map((hit) => this.chunkHit(rows.get(hit.id)!, hit.score, query, mode, options.filter));
    }
    const [lexical, semantic] = await Promise.all([
      this.bm25(words, scope, Math.max(k, FUSION_DEPTH)),
      this.dense(queryVector, scope, Math.max(k, FUSION_DEPTH)),
    ]);
    const fused = reciprocalRankFusion([lexical.map((row) => row.id), semantic.map((hit) => hit.id)]).slice(
      0,
      k,
    );
    const known = new Map<string, ChunkRow>(lexical.map((row) => [row.id, row]));
    const fetched = await this.chunksById(fused.map((hit) => hit.key).filter((id) => !known.has(id)));
    return fused.flatMap((hit) => {
      const row = known.get(hit.key) ?? fetched.get(hit.key);
      return row ? [this.chunkHit(row, hit.score, query, mode, options.filter)] : [];
    });
  }

  /** Late-interaction page search with the active page embedder; exact MaxSim scores. */
  async searchPages(query: string, options: PageSearchOptions = {}): Promise<SearchHit[]> {
    this.assertOpen();
    const k = checkK(options.k);
    if (typeof query !== 'string' || !query.trim())
      throw new QuireError('invalid_input', 'Type some words to search for.');
    const embedder = this.activeEmbedder('page');
    const kernel = this.pageKernel;
    if (!embedder || !kernel) {
      throw new QuireError(
        'model_unavailable',
        'Page search needs a page embedder whose vectors are complete.',
      );
    }
    const scope = this.scopeFor(options.filter);
    if (scope.allowed.size === 0 || kernel.size === 0) return [];
    const vectors = await embedder.embedQuery(query);
    if (vectors.length === 0) return [];
    const packed = packNormalised(vectors, embedder.dimensions);
    // Hidden or filtered-out pages are skipped afterwards, so ask for enough to fill k.
    let depth = k * 2;
    for (;;) {
      const candidates = kernel.search(packed, vectors.length, depth);
      const kept = candidates.filter((hit) => scope.allowed.has(hit.key.slice(0, hit.key.lastIndexOf(':'))));
      if (kept.length >= k || candidates.length < depth || depth >= kernel.size) {
        return this.pageHits(kept.slice(0, k), query, options.filter);
      }
      depth *= 4;
    }
  }

  private async pageHits(
    ranked: Array<{ key: string; score: number }>,
    query: string,
    filter: SearchFilter | undefined,
  ): Promise<SearchHit[]> {
    const rows = new Map<string, Record<string, unknown>>();
    for (const ids of inBatches(ranked.map((hit) => hit.key))) {
      for (const row of await this.pages
        .query()
        .where(sqlIn('id', ids))
        .select(['id', 'content_hash', 'page', 'text'])
        .toArray()) {
        rows.set(String(row.id), row as Record<string, unknown>);
      }
    }
    return ranked.flatMap((hit) => {
      const row = rows.get(hit.key);
      const owner = row ? this.ownerFor(String(row.content_hash), filter) : undefined;
      if (!row || !owner) return [];
      return [
        {
          documentId: owner.id,
          path: owner.path,
          page: Number(row.page),
          chunkId: null,
          score: hit.score,
          snippet: snippetAround(String(row.text), query),
          boxes: [],
          mode: 'pages' as const,
        },
      ];
    });
  }

  private async embedQuery(embedder: TextEmbedder, query: string): Promise<Float32Array> {
    const [vector] = await embedder.embed([query]);
    if (!vector)
      throw new QuireError('model_failed', `Embedder ${embedder.id} returned no vector for the query.`);
    return this.checkedVector(vector, embedder.dimensions, embedder.id);
  }

  private async bm25(
    words: string,
    scope: Scope,
    limit: number,
  ): Promise<Array<ChunkRow & { score: number }>> {
    if (!this.ftsReady) return [];
    await this.foldUnindexedChunks();
    const fetch = scope.exact ? limit : limit * 4;
    const query = this.chunks
      .query()
      .fullTextSearch(words, { columns: 'search_text' })
      .select(['id', 'content_hash', 'page', 'text', 'boxes', '_score'])
      .limit(fetch);
    if (scope.where) query.where(scope.where);
    const rows = (await query.toArray()) as Array<ChunkRow & { _score: number }>;
    return rows
      .filter((row) => scope.allowed.has(row.content_hash))
      .map((row) => ({ ...row, score: row._score }))
      .slice(0, limit);
  }

  private async dense(
    vector: Float32Array,
    scope: Scope,
    limit: number,
  ): Promise<Array<{ id: string; score: number }>> {
    const ref = this.meta.text.active!;
    const table = await this.db.openTable(ref.table);
    const query = table
      .vectorSearch(vector)
      .distanceType('cosine')
      // Used only once the partitioned index exists. Re-ranking the candidates measured faster
      // than without it here (p95 55 vs 148 ms at 100,000), though the probed distances are exact.
      .nprobes(20)
      .refineFactor(4)
      .select(['chunk_id', 'content_hash', '_distance'])
      .limit(scope.exact ? limit : limit * 4);
    if (scope.where) query.where(scope.where);
    const rows = (await query.toArray()) as Array<{
      chunk_id: string;
      content_hash: string;
      _distance: number;
    }>;
    return rows
      .filter((row) => scope.allowed.has(row.content_hash))
      .slice(0, limit)
      .map((row) => ({ id: row.chunk_id, score: 1 - row._distance }));
  }

  private async chunksById(ids: string[]): Promise<Map<string, ChunkRow>> {
    const rows = new Map<string, ChunkRow>();
    for (const batch of inBatches(ids)) {
      const found = await this.chunks
        .query()
        .where(sqlIn('id', batch))
        .select(['id', 'content_hash', 'page', 'text', 'boxes'])
        .toArray();
      for (const row of found as ChunkRow[]) rows.set(row.id, row);
    }
    return rows;
  }

  private chunkHit(
    row: ChunkRow,
    score: number,
    query: string,
    mode: SearchMode,
    filter: SearchFilter | undefined,
  ): SearchHit {
    const owner = this.ownerFor(row.content_hash, filter)!;
    return {
      documentId: owner.id,
      path: owner.path,
      page: Number(row.page),
      chunkId: row.id,
      score,
      snippet: snippetAround(row.text, query),
      boxes: parseBoxes(row.boxes),
      mode,
    };
  }

  /** Which visible content a search may return, and the cheapest SQL filter that says so. */
  private scopeFor(filter: SearchFilter | undefined): Scope {
    const owners = this.owners();
    const documentIds = filter?.documentIds ? new Set(filter.documentIds) : null;
    const rootIds = filter?.rootIds ? new Set(filter.rootIds) : null;
    const allowed = new Set<string>();
    for (const [hash, documents] of owners) {
      if (
        documents.some((d) => (!documentIds || documentIds.has(d.id)) && (!rootIds || rootIds.has(d.rootId)))
      ) {
        allowed.add(hash);
      }
    }
    if (documentIds !== null || rootIds !== null) {
      return allowed.size <= MAX_FILTER_HASHES
        ? { where: sqlIn('content_hash', allowed), allowed, exact: true }
        : { where: null, allowed, exact: false };
    }
    const hidden = [...this.referencedHashes()].filter((hash) => !allowed.has(hash));
    if (hidden.length === 0) return { where: null, allowed, exact: true };
    if (hidden.length <= MAX_FILTER_HASHES)
      return { where: sqlNotIn('content_hash', hidden), allowed, exact: true };
    if (allowed.size <= MAX_FILTER_HASHES)
      return { where: sqlIn('content_hash', allowed), allowed, exact: true };
    return { where: null, allowed, exact: false };
  }

  /** Indexed documents per content hash, by path, so a shared hash always maps to the same file first. */
  private owners(): Map<string, IndexedDocument[]> {
    if (!this.hitOwners) {
      const owners = new Map<string, IndexedDocument[]>();
      for (const document of this.listDocuments()) {
        if (document.state !== 'indexed' || !document.contentHash) continue;
        const list = owners.get(document.contentHash) ?? [];
        list.push(document);
        owners.set(document.contentHash, list);
      }
      this.hitOwners = owners;
    }
    return this.hitOwners;
  }

  private ownersOf(contentHash: string): IndexedDocument[] {
    return this.owners().get(contentHash) ?? [];
  }

  private ownerFor(contentHash: string, filter: SearchFilter | undefined): IndexedDocument | undefined {
    const owners = this.ownersOf(contentHash);
    return (
      owners.find(
        (d) =>
          (!filter?.documentIds || filter.documentIds.includes(d.id)) &&
          (!filter?.rootIds || filter.rootIds.includes(d.rootId)),
      ) ?? owners[0]
    );
  }

  // ---- maintenance ----

  /**
   * Compacts small writes, folds new rows into the full-text index, and removes old versions and
   * files no version references (left by a killed write). Call it when the app is idle.
   */
  optimize(options: OptimizeOptions = {}): Promise<OptimizeResult> {
    return this.exclusive(async () => {
      this.assertOpen();
      await this.ensureIndexes();
      await this.ensureVectorIndex();
      const cleanupOlderThan = options.cleanupOlderThan ?? new Date(Date.now() - 60_000);
      const result: OptimizeResult = { versionsRemoved: 0, bytesRemoved: 0 };
      for (const table of await this.allTables()) {
        const stats = await table.optimize({ cleanupOlderThan, deleteUnverified: true });
        result.versionsRemoved += stats.prune.oldVersionsRemoved;
        result.bytesRemoved += stats.prune.bytesRemoved;
      }
      this.unindexedChunks = 0;
      return result;
    });
  }

  /** Version counts per table, to see what optimize() can reclaim. */
  async versionCounts(): Promise<Record<string, number>> {
    this.assertOpen();
    const counts: Record<string, number> = {};
    for (const table of await this.allTables()) {
      counts[table.name] = (await table.listVersions()).length;
    }
    return counts;
  }

  /**
   * Creates each index once its table has rows (LanceDB cannot train on an empty table): full-text
   * on the chunks' search text, btrees on the ids and hashes that lookups and filters use. Folds
   * unindexed chunks into the full-text index when too many have piled up.
   */
  private async ensureIndexes(): Promise<void> {
    if (!this.ftsReady && (await this.chunks.countRows()) > 0) {
      await this.chunks.createIndex('search_text', {
        config: Index.fts({ stem: true, language: 'English', removeStopWords: true }),
        replace: true,
      });
      for (const column of ['id', 'content_hash']) {
        await this.chunks.createIndex(column, { config: Index.btree(), replace: true });
      }
      this.ftsReady = true;
      this.unindexedChunks = 0;
    }
    if (!this.pagesIndexed && (await this.pages.countRows()) > 0) {
      for (const column of ['id', 'content_hash']) {
        await this.pages.createIndex(column, { config: Index.btree(), replace: true });
      }
      this.pagesIndexed = true;
    }
    if (this.unindexedChunks > FTS_REFRESH_ROWS) {
      const total = await this.chunks.countRows();
      if (this.unindexedChunks > (total - this.unindexedChunks) * FTS_REFRESH_FRACTION) {
        await this.chunks.optimize();
        this.unindexedChunks = 0;
      }
    }
  }

  /**
   * Lance (0.31) answers full-text queries over rows its index has not absorbed by a scan that misses
   * many matches (stemmed and lower-cased words among them), so a document would not be found until
   * the next optimize. Rows written since the last fold are folded in before the first search needs them.
   */
  private async foldUnindexedChunks(): Promise<void> {
    if (this.unindexedChunks === 0) return;
    await this.exclusive(async () => {
      if (this.unindexedChunks === 0 || this.closed) return;
      await this.chunks.optimize();
      this.unindexedChunks = 0;
    });
  }

  private async ensureVectorIndex(): Promise<void> {
    const ref = this.meta.text.active;
    if (!ref) return;
    const table = await this.db.openTable(ref.table);
    if ((await table.listIndices()).some((index) => index.columns.includes('vector'))) return;
    if ((await table.countRows()) < (this.options.vectorIndexRows ?? VECTOR_INDEX_ROWS)) return;
    await table.createIndex('vector', { config: Index.ivfFlat({ distanceType: 'cosine' }) });
  }

  async stats(): Promise<IndexStats> {
    this.assertOpen();
    const documents = this.listDocuments();
    return {
      documents: documents.length,
      indexedDocuments: documents.filter((d) => d.state === 'indexed').length,
      chunks: await this.chunks.countRows(),
      pages: await this.pages.countRows(),
    };
  }

  /** Waits for queued writes, then releases the database. Later calls fail with a clear error. */
  async close(): Promise<void> {
    if (this.closed) return;
    await this.queue.catch(() => undefined);
    this.closed = true;
    this.pageKernel = null;
    this.db.close();
  }

  private assertOpen(): void {
    if (this.closed) throw new QuireError('internal', 'The index is closed.');
  }

  /** Runs writes one at a time, in call order; a failed write does not block the next. */
  private exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work, work);
    this.queue = run.catch(() => undefined);
    return run;
  }
}

export function openIndexStore(options: OpenIndexOptions): Promise<IndexStore> {
  return IndexStore.open(options);
}

/**
 * On machines with two cores or fewer, Lance's CPU pool leaves one blocking thread, and building or
 * merging a full-text index can then deadlock at 0% CPU (lancedb issue #3568; seen here during
 * optimize() at 70,000 chunks). More threads avoid it; the pool reads this once, at first use.
 */
function widenLanceThreadPool(): void {
  if (!process.env.LANCE_CPU_THREADS && availableParallelism() <= 2) process.env.LANCE_CPU_THREADS = '4';
}

function checkK(k: number | undefined): number {
  const value = k ?? DEFAULT_K;
  if (!Number.isInteger(value) || value < 1 || value > MAX_K) {
    throw new QuireError('invalid_input', `k must be a whole number from 1 to ${MAX_K}.`);
  }
  return value;
}

function normaliseRows(values: Float32Array, count: number, dimensions: number): Float32Array {
  const rows: Float32Array[] = [];
  for (let i = 0; i < count; i++) rows.push(values.subarray(i * dimensions, (i + 1) * dimensions));
  return packNormalised(rows, dimensions);
}
