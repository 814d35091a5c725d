import type {
  DocumentInfo,
  LibraryChange,
  LibraryListing,
  LibrarySnapshot,
} from '../../shared/domain/library';
import { compareLibraryPaths } from '../../shared/domain/libraryOrder';

interface ChangeSource {
  snapshot(): LibrarySnapshot;
  events: { on(event: 'changed', listener: (snapshot: LibrarySnapshot) => void): () => void };
}

/** Whether two records of a document say the same; nested values (OCR figures) compare as JSON. */
function sameDocument(a: DocumentInfo, b: DocumentInfo): boolean {
  for (const key of Object.keys(a) as Array<keyof DocumentInfo>) {
    const x = a[key];
    const y = b[key];
    if (x === y) continue;
    if (typeof x !== 'object' || typeof y !== 'object' || JSON.stringify(x) !== JSON.stringify(y))
      return false;
  }
  return Object.keys(b).length === Object.keys(a).length;
}

/** The index of the first document whose path comes after `path` in library order. */
function firstAfter(documents: readonly DocumentInfo[], path: string): number {
  let low = 0;
  let high = documents.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (compareLibraryPaths(documents[middle]!.path, path) <= 0) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * Sends the library's changes instead of the whole library: with ten thousand files, a state change
 * is one row, not a megabyte per update. Each change is numbered; `list()` sends what is pending first,
 * so a listing and the changes after it always join up.
 */
export class LibraryChangeFeed {
  private revision = 0;
  private readonly sent = new Map<string, DocumentInfo>();
  private sentOther = '';

  constructor(
    private readonly library: ChangeSource,
    private readonly emit: (change: LibraryChange) => void,
  ) {
    // Lives as long as the library: its emitter is cleared when it is disposed.
    library.events.on('changed', (snapshot) => this.send(snapshot));
  }

  /**
   * The library now. A page of it with `limit`: that many documents in library order, from the first
   * or from the one after the path `after`; `omitted` counts those after the page (see LibraryListing).
   */
  list(page: { limit?: number; after?: string } = {}): LibraryListing {
    const snapshot = this.library.snapshot();
    this.send(snapshot);
    const listing = { ...snapshot, revision: this.revision };
    const { documents } = snapshot;
    const start = page.after === undefined ? 0 : firstAfter(documents, page.after);
    const end = page.limit === undefined ? documents.length : Math.min(documents.length, start + page.limit);
    if (start === 0 && end === documents.length) return listing;
    const omitted = documents.length - end;
    return { ...listing, documents: documents.slice(start, end), ...(omitted > 0 ? { omitted } : {}) };
  }

  /**
   * Sends what changed now instead of at the library's next tick. A call that changes the library
   * (Retry, removing a folder) flushes before it answers, so the renderer, which shows only what this
   * feed sends, sees the change at once, and a state that passes within one tick (a retried file that
   * fails again at once) is still sent.
   */
  flush(): void {
    this.send(this.library.snapshot());
  }

  private send(snapshot: LibrarySnapshot): void {
    const documents: DocumentInfo[] = [];
    let stillListed = 0;
    for (const doc of snapshot.documents) {
      const before = this.sent.get(doc.id);
      if (before) stillListed++;
      // The library lists an unchanged document as the same object: most are passed over at once.
      if (before === doc) continue;
      if (before && sameDocument(before, doc)) this.sent.set(doc.id, doc);
      else documents.push(doc);
    }
    // Nothing sent has left when every document sent is still listed: no set of ten thousand ids then.
    const removed = stillListed === this.sent.size ? [] : this.leftSince(snapshot);
    const other = JSON.stringify([snapshot.roots, snapshot.skipped, snapshot.scanning]);
    if (documents.length === 0 && removed.length === 0 && other === this.sentOther) return;
    for (const doc of documents) this.sent.set(doc.id, doc);
    for (const id of removed) this.sent.delete(id);
    this.sentOther = other;
    const from = this.revision++;
    this.emit({
      from,
      to: this.revision,
      roots: snapshot.roots,
      skipped: snapshot.skipped,
      scanning: snapshot.scanning,
      documents,
      removed,
    });
  }

  /** The ids sent that the snapshot no longer lists. */
  private leftSince(snapshot: LibrarySnapshot): string[] {
    const listed = new Set(snapshot.documents.map((doc) => doc.id));
    return [...this.sent.keys()].filter((id) => !listed.has(id));
  }
}
