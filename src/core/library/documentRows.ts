import { dirname, relative, sep } from 'node:path';
import type { DocumentInfo, DocumentKind, DocumentState, LibraryRoot } from '../../shared/domain/library';
import type { DocumentCatalog } from '../index/documents/documentCatalog';
import type { IndexedDocument } from '../index/records';
import type { StoredDocument } from './libraryStore';
import { NOT_COUNTED, type PageCount } from './pageCounter';

/** The index's `documents` table as the library uses it: the one record of every document. */
export type DocumentRows = Pick<DocumentCatalog, 'list' | 'get' | 'noteFiles'>;

/** Rows a scan found are written together: at most this many per commit... */
const BATCH_ROWS = 300;
/** ...and no later than this after the first of them was found. */
const BATCH_DELAY_MS = 500;

const ENDED = new Set<DocumentState>(['indexed', 'needsPassword', 'failed', 'quarantined', 'unsupported']);

/** The row's document as the library lists it; its path inside its folder when the folder is known. */
export function fromRow(row: IndexedDocument, rootPath: string | undefined): StoredDocument {
  return {
    id: row.id,
    rootId: row.rootId,
    path: row.path,
    relativePath: rootPath ? relative(rootPath, row.path) : row.path,
    kind: row.kind,
    bytes: row.bytes,
    modifiedMs: row.modifiedMs,
    pages: row.pages,
    state: row.state,
    error: row.error,
    contentHash: row.contentHash,
    language: row.language ?? null,
  };
}

/**
 * The row of a file the library found or remembered: `listed` until ingestion reads it, or an end
 * state that needed no reading (a first-format library's failed file). Content is never claimed:
 * only ingestion names a content hash, once that content is in the index.
 */
export function listedRow(doc: StoredDocument): IndexedDocument {
  const ended = ENDED.has(doc.state) && doc.state !== 'indexed';
  return {
    id: doc.id,
    path: doc.path,
    rootId: doc.rootId,
    contentHash: null,
    kind: doc.kind,
    title: null,
    pages: doc.pages,
    bytes: doc.bytes,
    modifiedMs: doc.modifiedMs,
    state: ended ? doc.state : 'listed',
    error: ended ? doc.error : null,
    indexedAt: null,
    language: null,
  };
}

/**
 * The folders a reader of a shared library shows: one per folder id its writer's rows name, at
 * the deepest folder holding all of that folder's documents (the writer's own path is not stored).
 */
export function foldersOfRows(rows: readonly IndexedDocument[]): LibraryRoot[] {
  const common = new Map<string, string>();
  for (const row of rows) {
    const folder = dirname(row.path);
    const known = common.get(row.rootId);
    common.set(row.rootId, known === undefined ? folder : commonFolder(known, folder));
  }
  return [...common].map(([id, path]) => ({ id, path, addedAt: new Date(0).toISOString(), error: null }));
}

function commonFolder(a: string, b: string): string {
  const left = a.split(sep);
  const right = b.split(sep);
  let i = 0;
  while (i < left.length && i < right.length && left[i] === right[i]) i++;
  return left.slice(0, i).join(sep) || sep;
}

/**
 * Groups the rows of files a scan finds into few commits: a scan of 10,000 files makes a few dozen,
 * not 10,000 (on object storage every commit is requests). `wanted` drops a row whose file went
 * or changed again before its batch was written.
 */
export class RowBatcher {
  private readonly pending = new Map<string, IndexedDocument>();
  private timer: NodeJS.Timeout | undefined;
  private chain: Promise<void> = Promise.resolve();

  constructor(
    private readonly write: (rows: IndexedDocument[]) => Promise<void>,
    private readonly wanted: (row: IndexedDocument) => boolean,
  ) {}

  add(row: IndexedDocument): void {
    this.pending.set(row.id, row);
    if (this.pending.size >= BATCH_ROWS) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), BATCH_DELAY_MS);
  }

  /** Writes what is pending; resolves once every batch so far is written. */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const rows = [...this.pending.values()];
    this.pending.clear();
    if (rows.length > 0) {
      this.chain = this.chain
        .then(() => this.write(rows.filter(this.wanted)))
        .catch((error: unknown) => console.error('quire: could not record the files found', error));
    }
    return this.chain;
  }
}

/** What the UI sees of a document: everything but the internal content hash. */
export function toDocumentInfo(doc: StoredDocument): DocumentInfo {
  const { contentHash: _contentHash, ...info } = doc;
  return info;
}

/** A file a scan or the watcher found; its pages unknown until it is read, unless counted. */
export function foundDocument(
  root: LibraryRoot,
  file: { id: string; path: string; kind: DocumentKind; bytes: number; modifiedMs: number },
  count: PageCount = NOT_COUNTED,
): StoredDocument {
  const { pages, state, error } = count;
  return {
    ...file,
    rootId: root.id,
    relativePath: relative(root.path, file.path),
    pages,
    state,
    error,
    contentHash: null,
    language: null,
  };
}
