import type { DocumentInfo } from '../../shared/domain/library';
import { compareLibraryPaths } from '../../shared/domain/libraryOrder';
import { toDocumentInfo } from './documentRows';
import type { StoredDocument } from './libraryStore';

/**
 * The library's documents by id, and in library order. A document's path is part of its id, so the
 * order changes only when a document comes or goes: it is sorted again then, not on each listing
 * while ten thousand files change state.
 */
export class DocumentsInOrder {
  private readonly byId = new Map<string, StoredDocument>();
  private order: string[] | null = null;
  /** Each version of a document as listed, made once: an unchanged one is the same object next time. */
  private readonly asListed = new WeakMap<StoredDocument, DocumentInfo>();

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

  /** Every document as the library lists it, in library order. */
  listed(): DocumentInfo[] {
    this.order ??= [...this.byId.values()]
      .sort((a, b) => compareLibraryPaths(a.path, b.path))
      .map((doc) => doc.id);
    return this.order.map((id) => {
      const doc = this.byId.get(id)!;
      let info = this.asListed.get(doc);
      if (!info) {
        info = toDocumentInfo(doc);
        this.asListed.set(doc, info);
      }
      return info;
    });
  }
}
