import { compareLibraryPaths } from '../../shared/domain/libraryOrder';
import type { StoredDocument } from './libraryStore';

/**
 * The library's documents by id, and in library order. A document's path is part of its id, so the
 * order changes only when a document comes or goes: it is sorted again then, not on each listing
 * while ten thousand files change state.
 */
export class DocumentsInOrder {
  private readonly byId = new Map<string, StoredDocument>();
  private order: string[] | null = null;

  get size(): number {
    return this.byId.size;
  }

  get(id: string): StoredDocument | undefined {
    return this.byId.get(id);
  }

  set(id: string, doc: StoredDocument): void {
    if (!this.byId.has(id)) this.order = null;
    this.byId.set(id, doc);
  }

  delete(id: string): void {
    if (this.byId.delete(id)) this.order = null;
  }

  clear(): void {
    this.byId.clear();
    this.order = null;
  }

  values(): IterableIterator<StoredDocument> {
    return this.byId.values();
  }

  /** Every document, in library order. */
  ordered(): StoredDocument[] {
    this.order ??= [...this.byId.values()]
      .sort((a, b) => compareLibraryPaths(a.path, b.path))
      .map((doc) => doc.id);
    return this.order.map((id) => this.byId.get(id)!);
  }
}
