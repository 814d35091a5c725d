import type { Connection, Table } from '@lancedb/lancedb';
import { QuireError } from '../../../shared/errors';
import { freshMeta, openMetaTable, readMeta, writeMeta, type IndexMeta } from '../meta';
import { SCHEMA_VERSION, TABLES } from '../schema';
import { pageVectorRow } from '../vectors/pageVectorCells';
import { detectStoredLanguages } from './documentLanguages';

/*
 * Ordered steps from one schema version to the next. Each step must be safe to run again after a
 * crash half-way (check before changing), because the version is recorded only after it succeeds.
 */

export interface Migration {
  /** The version this step upgrades from; it leaves the index at `from + 1`. */
  from: number;
  description: string;
  run(db: Connection): Promise<void>;
}

async function columnsOf(db: Connection, name: string): Promise<string[] | null> {
  if (!(await db.tableNames()).includes(name)) return null;
  return (await (await db.openTable(name)).schema()).fields.map((field) => field.name);
}

export const MIGRATIONS: Migration[] = [
  {
    from: 1,
    description: 'chunks get a search_text column (heading + text) and BM25 moves to it',
    async run(db) {
      const columns = await columnsOf(db, TABLES.chunks);
      if (!columns) return;
      const chunks = await db.openTable(TABLES.chunks);
      if (!columns.includes('search_text')) {
        await chunks.addColumns([{ name: 'search_text', valueSql: "concat_ws(' ', heading, text)" }]);
      }
      // The old full-text index read `text`; the store builds the new one on search_text.
      for (const index of await chunks.listIndices()) {
        if (index.indexType === 'FTS' && !index.columns.includes('search_text'))
          await chunks.dropIndex(index.name);
      }
    },
  },
  {
    from: 2,
    description: 'pages record where their text came from (text_source: the text layer, OCR, ...)',
    async run(db) {
      const columns = await columnsOf(db, TABLES.pages);
      if (!columns || columns.includes('text_source')) return;
      const pages = await db.openTable(TABLES.pages);
      await pages.addColumns([{ name: 'text_source', valueSql: 'CAST(NULL AS STRING)' }]);
    },
  },
  {
    from: 3,
    description: 'page vectors move from float32 lists to one fp16 cell per page (vector_count, vectors_f16)',
    run: (db) => packPageVectors(db),
  },
  {
    from: 4,
    description: 'documents record their language, detected from the page text already stored',
    run: (db) => detectStoredLanguages(db),
  },
];

/** Rows converted per write: a few hundred pages of ~850 vectors keeps memory modest. */
const packBatch = 128;

/**
 * Adds the new columns, fills them batch by batch (only rows still empty, so a run killed half-way
 * resumes where it stopped), then drops the old list column.
 */
async function packPageVectors(db: Connection): Promise<void> {
  for (const name of await db.tableNames()) {
    if (!name.startsWith('page_vectors__')) continue;
    const columns = (await columnsOf(db, name)) ?? [];
    if (!columns.includes('vectors')) continue;
    const table = await db.openTable(name);
    if (!columns.includes('vectors_f16')) {
      await table.addColumns([
        { name: 'vector_count', valueSql: 'CAST(NULL AS INT)' },
        { name: 'vectors_f16', valueSql: 'CAST(NULL AS BINARY)' },
      ]);
    }
    for (;;) {
      const rows = await table
        .query()
        .where('vectors_f16 IS NULL')
        .select(['page_id', 'content_hash', 'vectors'])
        .limit(packBatch)
        .toArray();
      if (rows.length === 0) break;
      const packed = rows.map((row: Record<string, unknown>) => {
        const list = row.vectors as {
          length: number;
          get(i: number): { toArray(): Float32Array } | null;
        } | null;
        const vectors: Float32Array[] = [];
        for (let i = 0; i < (list?.length ?? 0); i++) {
          const vector = list!.get(i);
          if (vector) vectors.push(Float32Array.from(vector.toArray()));
        }
        const dimensions = vectors[0]?.length ?? 0;
        const { vector_count, vectors_f16 } = pageVectorRow(
          row.page_id,
          row.content_hash,
          vectors,
          dimensions,
        );
        return { page_id: row.page_id, vector_count, vectors_f16 };
      });
      await table.mergeInsert('page_id').whenMatchedUpdateAll().execute(packed);
    }
    await table.dropColumns(['vectors']);
  }
}

/** Runs the steps from `version` up to `target`, reporting each finished version to `record`. */
export async function migrate(
  db: Connection,
  version: number,
  target: number,
  record: (version: number) => Promise<void>,
  migrations: Migration[] = MIGRATIONS,
): Promise<void> {
  for (let current = version; current < target; current++) {
    const step = migrations.find((migration) => migration.from === current);
    if (!step) throw new Error(`No migration from index schema version ${current}.`);
    await step.run(db);
    await record(current + 1);
  }
}

/**
 * Reads the index's record and brings its tables to this version's schema. Refuses an index written
 * by a newer Quire rather than risk damaging it.
 */
export async function openOrMigrate(db: Connection): Promise<{ metaTable: Table; meta: IndexMeta }> {
  const metaTable = await openMetaTable(db);
  const stored = await readMeta(metaTable);
  let meta = stored ?? freshMeta(SCHEMA_VERSION);
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
  // Only a new index writes its record here: opening one that is current writes nothing (a full disk still reads).
  if (!stored) await writeMeta(metaTable, meta);
  return { metaTable, meta };
}
