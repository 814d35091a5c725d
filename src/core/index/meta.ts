import { z } from 'zod';

import type { Connection, Table } from '@lancedb/lancedb';
import { QuireError } from '../../shared/errors';
import { metaSchema, TABLES } from './schema';
import { sqlString } from './sql';

/*
 * The index's own record: schema version and which embedders' vectors are in use. Kept in a table
 * (one key, one JSON value) so it travels with the index to any LanceDB location, and each write is
 * a single atomic commit.
 */

const EmbedderRef = z.object({ id: z.string(), dimensions: z.number().int().positive(), table: z.string() });
export type EmbedderRef = z.infer<typeof EmbedderRef>;

/** `active` is complete and searched; `pending` is being filled and takes over once complete. */
const EmbedderSlot = z.object({ active: EmbedderRef.nullable(), pending: EmbedderRef.nullable() });
export type EmbedderSlot = z.infer<typeof EmbedderSlot>;

const IndexMeta = z.object({
  schemaVersion: z.number().int().positive(),
  text: EmbedderSlot,
  page: EmbedderSlot,
});
export type IndexMeta = z.infer<typeof IndexMeta>;

const META_KEY = 'index';

export function freshMeta(schemaVersion: number): IndexMeta {
  return { schemaVersion, text: { active: null, pending: null }, page: { active: null, pending: null } };
}

export async function openMetaTable(db: Connection): Promise<Table> {
  try {
    return await db.openTable(TABLES.meta);
  } catch (error) {
    // Asked of the table, not of a listing (some S3-compatible servers list no table folders).
    if (!/was not found/i.test(error instanceof Error ? error.message : String(error))) throw error;
    return db.createEmptyTable(TABLES.meta, metaSchema);
  }
}

/** Null for an index that has no record yet (a new one). */
export async function readMeta(table: Table): Promise<IndexMeta | null> {
  const rows = await table
    .query()
    .where(`key = ${sqlString(META_KEY)}`)
    .toArray();
  const value = rows[0]?.value as string | undefined;
  if (value === undefined) return null;
  const parsed = IndexMeta.safeParse(JSON.parse(value));
  if (!parsed.success)
    throw new QuireError('internal', 'The index metadata is damaged.', parsed.error.issues);
  return parsed.data;
}

export async function writeMeta(table: Table, meta: IndexMeta): Promise<void> {
  await table
    .mergeInsert('key')
    .whenMatchedUpdateAll()
    .whenNotMatchedInsertAll()
    .execute([{ key: META_KEY, value: JSON.stringify(meta) }]);
}
