import type { DocumentState } from '../../shared/domain/library';
import type { DocumentCatalog } from '../index/documents/documentCatalog';
import type { IndexedDocument } from '../index/records';
import type { LibraryService } from '../library/libraryService';
import type { StoredDocument } from '../library/libraryStore';
import type { PasswordVault } from './passwordVault';
import { readsFurtherUnder } from './readingNote';

const REMOVAL_GRACE_MS = 1000;
/** Row states that say reading the file ended: nothing to queue while the file is unchanged. */
const ENDED = new Set<DocumentState>(['indexed', 'needsPassword', 'failed', 'quarantined', 'unsupported']);

export interface ReconciliationDeps {
  library: Pick<LibraryService, 'events' | 'allDocuments' | 'document' | 'busy' | 'isLeaving'>;
  documents: Pick<DocumentCatalog, 'get' | 'list' | 'remove'>;
  passwords: Pick<PasswordVault, 'forget'>;
  /** Queues a file for reading; `urgent` for files the user is waiting for. */
  enqueue(doc: StoredDocument, urgent: boolean): void;
  /** Drops a file from the queue and stops reading it. */
  dequeue(documentId: string): void;
  /** Whether files are queued or being read: removals wait until they are not. */
  filesPending(): boolean;
  /** The most pages of one document read today: a file cut shorter before is read again. */
  pageLimit: number;
  /**
   * Whether this library's folders hold an indexed document, so that its absence means it vanished.
   * All of them by default; a shared library's writer owns only what lies under its own folders.
   */
  owns?: (doc: IndexedDocument) => boolean;
}

/**
 * Carries the library's changes to the queue and the index. The library lists the index's own rows
 * and its scan compares them with the disk (a new or changed file is announced, a vanished one
 * removed), so at start there is nothing to reconcile: files whose reading never ended are queued,
 * as are files the scan announced before this started. Removals wait a moment (see below).
 */
export class Reconciliation {
  private readonly unsubscribe: Array<() => void> = [];
  /** Roots added in this session go first: the user is waiting for them. */
  private readonly newRoots = new Set<string>();
  private readonly pendingRemovals = new Set<string>();
  private removalTimer: NodeJS.Timeout | undefined;
  private disposed = false;

  constructor(private readonly deps: ReconciliationDeps) {}

  start(): void {
    const { library, documents } = this.deps;
    this.unsubscribe.push(
      library.events.on('rootAdded', (root) => this.newRoots.add(root.id)),
      library.events.on('documentUpdated', (doc) => this.deps.enqueue(doc, this.newRoots.has(doc.rootId))),
      library.events.on('documentRemoved', (doc) => this.forget(doc.id)),
    );
    const known = new Set<string>();
    for (const doc of library.allDocuments()) {
      known.add(doc.id);
      const row = documents.get(doc.id);
      const stale = !row || !isCurrent(row, doc) || !ENDED.has(row.state);
      if (stale || readsFurtherUnder(row.error, this.deps.pageLimit)) this.deps.enqueue(doc, false);
    }
    // Rows of folders removed while Quire was not running (or just before it stopped).
    for (const indexed of documents.list()) {
      if (!known.has(indexed.id) && (this.deps.owns?.(indexed) ?? true)) void this.dropFromIndex(indexed.id);
    }
  }

  dispose(): void {
    this.disposed = true;
    clearTimeout(this.removalTimer);
    for (const off of this.unsubscribe.splice(0)) off();
  }

  private forget(documentId: string): void {
    this.deps.dequeue(documentId);
    this.pendingRemovals.add(documentId);
    this.scheduleRemovals();
  }

  /**
   * A rename arrives as a removal and an addition. Removing the old row at once would drop content the
   * new name is about to reuse, so removals wait until the library has looked at every new file and
   * the queue has settled (the new name is then indexed against the same content).
   */
  private scheduleRemovals(): void {
    clearTimeout(this.removalTimer);
    this.removalTimer = setTimeout(() => {
      this.removalTimer = undefined;
      if (this.disposed) return;
      if (this.deps.library.busy || this.deps.filesPending()) return this.scheduleRemovals();
      // A folder whose removal can still be undone keeps its content until the undo window closes.
      const ids = [...this.pendingRemovals].filter((id) => !this.deps.library.isLeaving(id));
      for (const id of ids) this.pendingRemovals.delete(id);
      for (const id of ids) if (!this.deps.library.document(id)) void this.dropFromIndex(id);
      if (this.pendingRemovals.size > 0) this.scheduleRemovals();
    }, REMOVAL_GRACE_MS);
  }

  private async dropFromIndex(documentId: string): Promise<void> {
    try {
      await this.deps.documents.remove(documentId);
      await this.deps.passwords.forget(documentId);
    } catch (error) {
      console.error('quire: could not remove a document from the index', error);
    }
  }
}

/** The row describes the file as the library last saw it (same size and time). */
function isCurrent(indexed: IndexedDocument, doc: StoredDocument): boolean {
  return indexed.path === doc.path && indexed.bytes === doc.bytes && indexed.modifiedMs === doc.modifiedMs;
}
