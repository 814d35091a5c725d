import type { Table } from '@lancedb/lancedb';
import { Field, Float64, Schema, Utf8 } from '../arrowTypes';

import { Collection, CollectionName } from '../../../shared/domain/scope';
import { QuireError } from '../../../shared/errors';
import { sqlString } from '../sql';
import { openIfPresent, type IndexTables } from '../tables';
import { upsertRows } from '../tableIo';

/*
 * Collections: named, saved scopes, kept beside the documents they name, in the index. A collection
 * holds paths (files or folders), so a document can be in many and deleting a collection deletes no
 * document; a path whose file vanished stays listed until removed, and scopes say it is missing.
 */

export const COLLECTIONS_TABLE = 'collections';

const collectionsSchema = new Schema([
  new Field('name', new Utf8(), false),
  /** JSON array of absolute paths. */
  new Field('paths', new Utf8(), false),
  new Field('created_at', new Float64(), false),
  new Field('updated_at', new Float64(), false),
]);

export interface CollectionStore {
  list(): Collection[];
  get(name: string): Collection | null;
  create(name: string): Promise<Collection>;
  rename(name: string, to: string): Promise<Collection>;
  delete(name: string): Promise<void>;
  add(name: string, paths: string[]): Promise<Collection>;
  remove(name: string, paths: string[]): Promise<Collection>;
}

export class IndexCollections implements CollectionStore {
  private readonly byName = new Map<string, Collection>();
  private table: Table | null = null;

  constructor(
    private readonly tables: IndexTables,
    private readonly now: () => number = Date.now,
  ) {}

  /** Opens (or creates) the table and reads every row; there is one row per collection. */
  async load(): Promise<void> {
    // Asked of the table, not of a listing; a reader of a shared library creates nothing.
    const existing = await openIfPresent(this.tables.db, COLLECTIONS_TABLE);
    if (!existing && this.tables.readOnly) return;
    this.table =
      existing ??
      (await this.tables.db.createEmptyTable(COLLECTIONS_TABLE, collectionsSchema, { existOk: true }));
    // Read again on a reader's refresh: collections the writer deleted go too.
    this.byName.clear();
    for (const row of (await this.table.query().toArray()) as Array<Record<string, unknown>>) {
      const parsed = Collection.safeParse({
        name: row.name,
        paths: parsePaths(row.paths),
        createdAt: Number(row.created_at),
        updatedAt: Number(row.updated_at),
      });
      if (parsed.success) this.byName.set(parsed.data.name, parsed.data);
    }
  }

  list(): Collection[] {
    return [...this.byName.values()].sort((a, b) => a.name.localeCompare(b.name));
  }

  get(name: string): Collection | null {
    return this.find(name) ?? null;
  }

  create(name: string): Promise<Collection> {
    const checked = checkName(name);
    return this.tables.exclusive(async () => {
      if (this.find(checked))
        throw new QuireError('invalid_input', `A collection "${checked}" exists already.`);
      const at = this.now();
      return this.write({ name: checked, paths: [], createdAt: at, updatedAt: at });
    });
  }

  rename(name: string, to: string): Promise<Collection> {
    const target = checkName(to);
    return this.tables.exclusive(async () => {
      const current = this.require(name);
      const clash = this.find(target);
      if (clash && clash !== current)
        throw new QuireError('invalid_input', `A collection "${target}" exists already.`);
      await this.deleteRow(current.name);
      return this.write({ ...current, name: target, updatedAt: this.now() });
    });
  }

  delete(name: string): Promise<void> {
    return this.tables.exclusive(async () => {
      await this.deleteRow(this.require(name).name);
    });
  }

  add(name: string, paths: string[]): Promise<Collection> {
    return this.tables.exclusive(async () => {
      const current = this.require(name);
      const merged = [...new Set([...current.paths, ...paths])].sort();
      return this.write({ ...current, paths: merged, updatedAt: this.now() });
    });
  }

  remove(name: string, paths: string[]): Promise<Collection> {
    return this.tables.exclusive(async () => {
      const current = this.require(name);
      const gone = new Set(paths);
      const missing = paths.filter((p) => !current.paths.includes(p));
      if (missing.length > 0)
        throw new QuireError('not_found', `"${current.name}" does not hold ${missing.join(', ')}.`);
      return this.write({
        ...current,
        paths: current.paths.filter((p) => !gone.has(p)),
        updatedAt: this.now(),
      });
    });
  }

  private find(name: string): Collection | undefined {
    const wanted = name.trim().toLowerCase();
    for (const collection of this.byName.values())
      if (collection.name.toLowerCase() === wanted) return collection;
    return undefined;
  }

  private require(name: string): Collection {
    const found = this.find(name);
    if (!found) throw new QuireError('not_found', `There is no collection "${name}".`);
    return found;
  }

  private async write(collection: Collection): Promise<Collection> {
    this.tables.assertOpen();
    await upsertRows(this.open(), 'name', [
      {
        name: collection.name,
        paths: JSON.stringify(collection.paths),
        created_at: collection.createdAt,
        updated_at: collection.updatedAt,
      },
    ]);
    this.byName.set(collection.name, collection);
    return collection;
  }

  private async deleteRow(name: string): Promise<void> {
    this.tables.assertOpen();
    await this.open().delete(`name = ${sqlString(name)}`);
    this.byName.delete(name);
  }

  private open(): Table {
    if (!this.table) throw new QuireError('internal', 'Collections are not loaded.');
    return this.table;
  }
}

function checkName(name: string): string {
  const parsed = CollectionName.safeParse(name);
  if (!parsed.success)
    throw new QuireError('invalid_input', 'A collection name is 1 to 120 characters, not only spaces.');
  return parsed.data;
}

function parsePaths(value: unknown): unknown {
  try {
    return JSON.parse(String(value));
  } catch {
    return [];
  }
}
