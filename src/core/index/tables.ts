import { availableParallelism } from 'node:os';

import { connect, Session, type Connection, type Table } from '@lancedb/lancedb';

import { QuireError } from '../../shared/errors';
import { readMeta, writeMeta, type EmbedderRef, type IndexMeta } from './meta';
import { openOrMigrate } from './maintenance/migrations';
import {
  chunksSchema,
  documentsSchema,
  pagesSchema,
  SCHEMA_VERSION,
  TABLES,
  type VectorKind,
} from './schema';

export interface OpenTablesOptions {
  /** LanceDB's storage options (object storage: endpoint, region, credentials), held in memory only. */
  storageOptions?: Record<string, string>;
  /** Open for reading only: nothing is created, migrated or written, and writes are refused. */
  readOnly?: boolean;
  /** Caps on LanceDB's caches (its defaults, 6 GB of index and 1 GB of metadata, outgrow a small machine). */
  cacheLimits?: { indexBytes: number; metadataBytes: number };
}

/*
 * What every part of the index shares: one LanceDB connection, its fixed tables, the index's own
 * record (schema version, embedders in use) and the one queue writes go through. One process owns
 * an index folder; each part keeps its own in-memory facts and reaches storage through here.
 */
export class IndexTables {
  private queue: Promise<unknown> = Promise.resolve();
  private disposed = false;
  /** LanceDB's cache session, when its size was capped: it counts what it holds. */
  private cacheSession: Session | null = null;

  private constructor(
    readonly db: Connection,
    readonly metaTable: Table,
    private currentMeta: IndexMeta,
    readonly documents: Table,
    readonly chunks: Table,
    readonly pages: Table,
    readonly readOnly = false,
  ) {}

  static async open(uri: string, options: OpenTablesOptions = {}): Promise<IndexTables> {
    if (!uri) throw new QuireError('invalid_input', 'The index needs a folder or URI.');
    widenLanceThreadPool();
    const limits = options.cacheLimits;
    const session = limits
      ? new Session(BigInt(Math.round(limits.indexBytes)), BigInt(Math.round(limits.metadataBytes)))
      : null;
    const db = await connect(uri, {
      readConsistencyInterval: 0,
      ...(options.storageOptions ? { storageOptions: options.storageOptions } : {}),
      ...(session ? { session } : {}),
    });
    try {
      const tables = await IndexTables.openTables(db, options.readOnly ?? false);
      tables.cacheSession = session;
      return tables;
    } catch (error) {
      db.close();
      throw error;
    }
  }

  /** Bytes LanceDB's caches hold now; null when the caches were left uncapped (nothing counts them). */
  cacheBytes(): number | null {
    return this.cacheSession ? Number(this.cacheSession.sizeBytes()) : null;
  }

  private static async openTables(db: Connection, readOnly: boolean): Promise<IndexTables> {
    if (readOnly) return IndexTables.openForReading(db);
    const { metaTable, meta } = await openOrMigrate(db);
    const table = async (name: string, schema: typeof chunksSchema) =>
      (await openIfPresent(db, name)) ?? db.createEmptyTable(name, schema);
    return new IndexTables(
      db,
      metaTable,
      meta,
      await table(TABLES.documents, documentsSchema),
      await table(TABLES.chunks, chunksSchema),
      await table(TABLES.pages, pagesSchema),
    );
  }

  /** A reader opens what a writer made, as it is: no table is created and no record rewritten. */
  private static async openForReading(db: Connection): Promise<IndexTables> {
    const opened = await Promise.all(
      [TABLES.meta, TABLES.documents, TABLES.chunks, TABLES.pages].map((name) => openIfPresent(db, name)),
    );
    const [metaTable, documents, chunks, pages] = opened;
    if (!metaTable || !documents || !chunks || !pages)
      throw new QuireError('not_found', 'This library has no index yet: index a folder into it first.');
    const meta = await readMeta(metaTable);
    if (!meta)
      throw new QuireError('not_found', 'This library has no index yet: index a folder into it first.');
    if (meta.schemaVersion !== SCHEMA_VERSION)
      throw new QuireError(
        'unsupported',
        `This library's index has schema ${meta.schemaVersion}; this Quire reads ${SCHEMA_VERSION}. ` +
          "Open it once with the indexing machine's Quire of the same version.",
      );
    return new IndexTables(db, metaTable, meta, documents, chunks, pages, true);
  }

  get meta(): IndexMeta {
    return this.currentMeta;
  }

  /** A reader reads the record again: its writer may have switched embedders since. */
  async reloadMeta(): Promise<void> {
    if (!this.readOnly) return;
    this.currentMeta = (await readMeta(this.metaTable)) ?? this.currentMeta;
  }

  async saveMeta(meta: IndexMeta): Promise<void> {
    this.assertWritable();
    await writeMeta(this.metaTable, meta);
    this.currentMeta = meta;
  }

  /** Runs writes one at a time, in call order; a failed write does not block the next. */
  exclusive<T>(work: () => Promise<T>): Promise<T> {
    if (this.readOnly) return Promise.reject(readOnlyError());
    const run = this.queue.then(work, work);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Refuses a write on a library opened for reading. */
  assertWritable(): void {
    if (this.readOnly) throw readOnlyError();
  }

  assertOpen(): void {
    if (this.disposed) throw new QuireError('internal', 'The index is closed.');
  }

  get isDisposed(): boolean {
    return this.disposed;
  }

  /** Tables of the embedders the record names (active and pending), for the given kinds. */
  async vectorTables(kinds: readonly VectorKind[] = ['text', 'page']): Promise<Table[]> {
    const refs = kinds.flatMap((kind) => [this.meta[kind].active, this.meta[kind].pending]);
    const opened = await Promise.all(
      refs.filter((ref): ref is EmbedderRef => ref !== null).map((ref) => openIfPresent(this.db, ref.table)),
    );
    return opened.filter((table): table is Table => table !== null);
  }

  /** Every table of the index, for maintenance. */
  async allTables(): Promise<Table[]> {
    return [this.metaTable, this.documents, this.chunks, this.pages, ...(await this.vectorTables())];
  }

  /**
   * Each table's name and latest version, in one line: what a reader compares to learn that its
   * writer committed since. Tables are asked by name, never listed (see `openIfPresent`).
   */
  async versions(extra: readonly string[] = []): Promise<string> {
    const held = [this.metaTable, this.documents, this.chunks, this.pages];
    const named = await Promise.all(extra.map((name) => openIfPresent(this.db, name)));
    const tables = [...held, ...(await this.vectorTables()), ...named];
    const versions = await Promise.all(
      tables.map(async (table) => (table ? `${table.name}@${await table.version()}` : '-')),
    );
    return versions.join(' ');
  }

  async dropTable(name: string): Promise<void> {
    this.assertWritable();
    if ((await this.db.tableNames()).includes(name)) await this.db.dropTable(name);
  }

  /** Waits for queued writes, then releases the database. Later calls fail with a clear error. */
  async dispose(): Promise<void> {
    if (this.disposed) return;
    await this.queue.catch(() => undefined);
    this.disposed = true;
    this.db.close();
  }
}

/**
 * Opens a table, or null when there is none. Asked of the table itself, not of a listing: some
 * S3-compatible servers list no common prefixes, so a listing can miss tables that exist.
 */
export async function openIfPresent(db: Connection, name: string): Promise<Table | null> {
  try {
    return await db.openTable(name);
  } catch (error) {
    if (/was not found/i.test(error instanceof Error ? error.message : String(error))) return null;
    throw error;
  }
}

function readOnlyError(): QuireError {
  return new QuireError(
    'forbidden',
    'This library is open read-only here: another machine writes it (run `quire index` there).',
  );
}

/**
 * On machines with two cores or fewer, Lance's CPU pool leaves one blocking thread, and building or
 * merging a full-text index can then deadlock at 0% CPU (lancedb issue #3568; seen here during
 * optimize() at 70,000 chunks). More threads avoid it; the pool reads this once, at first use.
 */
function widenLanceThreadPool(): void {
  if (!process.env.LANCE_CPU_THREADS && availableParallelism() <= 2) process.env.LANCE_CPU_THREADS = '4';
}
