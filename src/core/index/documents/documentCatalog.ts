import type { DocumentState } from '../../../shared/domain/library';
import { QuireError } from '../../../shared/errors';
import { documentFromRow, documentToRow, IndexedDocument } from '../records';
import { sqlString } from '../sql';
import type { IndexTables } from '../tables';
import { upsertRows } from '../tableIo';

/** The index's record of which files exist and what state each is in: the one owner of that fact. */
export interface DocumentCatalog {
  /** Every document, by path. */
  list(): IndexedDocument[];
  /** Every document, in no set order: for a pass over all of them, without sorting 10,000 paths. */
  unordered(): IndexedDocument[];
  get(id: string): IndexedDocument | null;
  /** An indexed document holding this content, if any (a renamed or copied file finds its twin). */
  indexedWithContent(contentHash: string): IndexedDocument | null;
  /** Every indexed document holding this content. */
  allIndexedWithContent(contentHash: string): IndexedDocument[];
  /**
   * Writes a document's row: the commit point that makes its content visible when `state` is
   * `indexed`. Content no document names any more is deleted.
   */
  upsert(document: IndexedDocument): Promise<void>;
  /**
   * Records files the library found: a row is written where the index holds none for the file, or
   * holds one that is not indexed and describes another version of it. Indexed rows are left alone
   * (their content stays searchable until the new version commits). One commit for all of them.
   */
  noteFiles(documents: IndexedDocument[]): Promise<void>;
  setState(id: string, state: DocumentState, error?: string | null): Promise<IndexedDocument>;
  /** Records the language of a document's text (after OCR gave it text it did not have). */
  setLanguage(id: string, language: string): Promise<void>;
  /** Removes a document; its content goes with it unless another file shares it. */
  remove(id: string): Promise<void>;
}

/** What search and garbage collection read: which documents make which content visible. */
export interface ContentOwners {
  /** Indexed documents per content hash, ordered by path, so a shared hash always maps to the same file first. */
  owners(): ReadonlyMap<string, IndexedDocument[]>;
  /** Every content hash a documents row names, whatever its state. */
  referencedHashes(): Set<string>;
}

/** What the catalog needs of the content part when a row changes which content it names. */
export interface ContentRelease {
  /** A row now names this content: it is no longer in flight. Runs inside the write queue. */
  committed(contentHash: string): void;
  /** Deletes the content of these hashes that no row names. Runs inside the write queue. */
  releaseIfUnused(contentHashes: string[]): Promise<void>;
}

interface PendingUpsert {
  document: IndexedDocument;
  resolve: () => void;
  reject: (error: unknown) => void;
}

export class IndexDocuments implements DocumentCatalog, ContentOwners {
  private byId = new Map<string, IndexedDocument>();
  private ownersCache: Map<string, IndexedDocument[]> | null = null;
  /** Ids of indexed documents by content hash, kept with `byId`: asked once per file drawn or read. */
  private indexedByHash = new Map<string, Set<string>>();
  /** Rows waiting for the write queue: whatever arrives while one commit runs goes in the next. */
  private pendingUpserts: PendingUpsert[] = [];

  constructor(
    private readonly tables: IndexTables,
    private readonly content: ContentRelease,
  ) {}

  /** Reads every row into memory; the table is small (one row per file). */
  async load(): Promise<void> {
    // Built apart and swapped in: a reader's refresh drops the rows its writer deleted.
    const byId = new Map<string, IndexedDocument>();
    for await (const batch of this.tables.documents.query()) {
      for (const row of batch.toArray()) {
        const document = documentFromRow(row as Record<string, unknown>);
        byId.set(document.id, document);
      }
    }
    this.byId = byId;
    this.ownersCache = null;
    this.indexedByHash = new Map();
    for (const document of byId.values()) this.noteIndexed(undefined, document);
  }

  list(): IndexedDocument[] {
    return this.unordered().sort((a, b) => a.path.localeCompare(b.path));
  }

  unordered(): IndexedDocument[] {
    return [...this.byId.values()];
  }

  get(id: string): IndexedDocument | null {
    return this.byId.get(id) ?? null;
  }

  indexedWithContent(contentHash: string): IndexedDocument | null {
    return this.allIndexedWithContent(contentHash)[0] ?? null;
  }

  allIndexedWithContent(contentHash: string): IndexedDocument[] {
    const documents: IndexedDocument[] = [];
    for (const id of this.indexedByHash.get(contentHash) ?? []) {
      const document = this.byId.get(id);
      if (document) documents.push(document);
    }
    return documents;
  }

  upsert(document: IndexedDocument): Promise<void> {
    const parsed = IndexedDocument.safeParse(document);
    if (!parsed.success) {
      return Promise.reject(
        new QuireError('invalid_input', 'This document record is not valid.', parsed.error.issues),
      );
    }
    return new Promise<void>((resolve, reject) => {
      this.pendingUpserts.push({ document: parsed.data, resolve, reject });
      // Group commit: one write-queue turn takes every row that arrived meanwhile, without waiting longer.
      if (this.pendingUpserts.length === 1) {
        this.tables
          .exclusive(() => this.writePending())
          .catch((error: unknown) => {
            for (const pending of this.pendingUpserts.splice(0)) pending.reject(error);
          });
      }
    });
  }

  noteFiles(documents: IndexedDocument[]): Promise<void> {
    for (const document of documents) IndexedDocument.parse(document);
    return this.tables.exclusive(async () => {
      const fresh = documents.filter((document) => {
        const current = this.byId.get(document.id);
        if (!current) return true;
        if (current.state === 'indexed') return false;
        return (
          current.path !== document.path ||
          current.bytes !== document.bytes ||
          current.modifiedMs !== document.modifiedMs
        );
      });
      if (fresh.length > 0) await this.write(fresh);
    });
  }

  setState(id: string, state: DocumentState, error: string | null = null): Promise<IndexedDocument> {
    return this.tables.exclusive(async () => {
      const current = this.require(id);
      const next: IndexedDocument = {
        ...current,
        state,
        error,
        indexedAt: state === 'indexed' ? Date.now() : current.indexedAt,
      };
      await this.write([next]);
      return next;
    });
  }

  setLanguage(id: string, language: string): Promise<void> {
    return this.tables.exclusive(async () => {
      const current = this.require(id);
      if (current.language !== language) await this.write([{ ...current, language }]);
    });
  }

  remove(id: string): Promise<void> {
    return this.tables.exclusive(async () => {
      this.tables.assertOpen();
      const current = this.byId.get(id);
      if (!current) return;
      await this.tables.documents.delete(`id = ${sqlString(id)}`);
      this.byId.delete(id);
      this.noteIndexed(current, undefined);
      this.ownersCache = null;
      if (current.contentHash) await this.content.releaseIfUnused([current.contentHash]);
    });
  }

  owners(): ReadonlyMap<string, IndexedDocument[]> {
    if (!this.ownersCache) {
      const owners = new Map<string, IndexedDocument[]>();
      for (const document of this.list()) {
        if (document.state !== 'indexed' || !document.contentHash) continue;
        const list = owners.get(document.contentHash) ?? [];
        list.push(document);
        owners.set(document.contentHash, list);
      }
      this.ownersCache = owners;
    }
    return this.ownersCache;
  }

  referencedHashes(): Set<string> {
    const used = new Set<string>();
    for (const document of this.byId.values()) if (document.contentHash) used.add(document.contentHash);
    return used;
  }

  private async writePending(): Promise<void> {
    const batch = this.pendingUpserts.splice(0);
    try {
      await this.write(batch.map((pending) => pending.document));
    } catch (error) {
      for (const pending of batch) pending.reject(error);
      return;
    }
    for (const pending of batch) pending.resolve();
  }

  /** Writes rows in one commit (the last row of an id wins), then lets go of content none names now. */
  private async write(documents: IndexedDocument[]): Promise<void> {
    this.tables.assertOpen();
    const latest = new Map(documents.map((document) => [document.id, document]));
    const replaced = new Set<string>();
    for (const document of documents) {
      const previous = this.byId.get(document.id)?.contentHash;
      if (previous && previous !== latest.get(document.id)?.contentHash) replaced.add(previous);
    }
    await upsertRows(this.tables.documents, 'id', [...latest.values()].map(documentToRow));
    for (const document of latest.values()) {
      this.noteIndexed(this.byId.get(document.id), document);
      this.byId.set(document.id, document);
      if (document.contentHash) this.content.committed(document.contentHash);
    }
    this.ownersCache = null;
    if (replaced.size > 0) await this.content.releaseIfUnused([...replaced]);
  }

  /** Keeps `indexedByHash` in step as a document's row goes from `before` to `after`. */
  private noteIndexed(before: IndexedDocument | undefined, after: IndexedDocument | undefined): void {
    if (before?.state === 'indexed' && before.contentHash) {
      const ids = this.indexedByHash.get(before.contentHash);
      ids?.delete(before.id);
      if (ids?.size === 0) this.indexedByHash.delete(before.contentHash);
    }
    if (after?.state === 'indexed' && after.contentHash) {
      const ids = this.indexedByHash.get(after.contentHash) ?? new Set<string>();
      ids.add(after.id);
      this.indexedByHash.set(after.contentHash, ids);
    }
  }

  private require(id: string): IndexedDocument {
    this.tables.assertOpen();
    const document = this.byId.get(id);
    if (!document) throw new QuireError('not_found', `No document with id "${id}" in the index.`);
    return document;
  }
}
