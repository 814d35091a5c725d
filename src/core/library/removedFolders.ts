import type { DocumentState, LibraryRoot } from '../../shared/domain/library';
import type { StoredDocument } from './libraryStore';

/** States a file reaches when reading it ended; any other state means it was still to be read. */
const FINAL_STATES = new Set<DocumentState>([
  'indexed',
  'needsPassword',
  'failed',
  'quarantined',
  'unsupported',
]);

export interface RemovedFolder {
  rootId: string;
  /** Until when `undoRemove` can put the folder back; null when the removal was final at once. */
  undoUntil: string | null;
}

interface HeldFolder {
  root: LibraryRoot;
  documents: StoredDocument[];
  timer: NodeJS.Timeout;
}

/** Folders removed moments ago, held for a while so the removal can be undone. */
export class RemovedFolders {
  private readonly held = new Map<string, HeldFolder>();

  /** Holds what the library knew of the folder for `ms`; returns until when. */
  hold(root: LibraryRoot, documents: StoredDocument[], ms: number): string {
    this.take(root.id);
    const timer = setTimeout(() => this.held.delete(root.id), ms);
    this.held.set(root.id, { root, documents, timer });
    return new Date(Date.now() + ms).toISOString();
  }

  take(rootId: string): Omit<HeldFolder, 'timer'> | undefined {
    const held = this.held.get(rootId);
    if (!held) return undefined;
    clearTimeout(held.timer);
    this.held.delete(rootId);
    return held;
  }

  holds(documentId: string): boolean {
    for (const { documents } of this.held.values())
      if (documents.some((doc) => doc.id === documentId)) return true;
    return false;
  }

  clear(): void {
    for (const { timer } of this.held.values()) clearTimeout(timer);
    this.held.clear();
  }
}

/** The documents whose reading was cut short. */
export function unfinished(documents: readonly StoredDocument[]): StoredDocument[] {
  return documents.filter((doc) => !FINAL_STATES.has(doc.state));
}
