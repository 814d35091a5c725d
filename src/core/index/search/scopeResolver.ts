import { sep } from 'node:path';

import type { Scope } from '../../../shared/domain/scope';
import { isWholeLibrary, scopeLabel } from '../../../shared/domain/scopeText';
import { QuireError } from '../../../shared/errors';
import type { CollectionStore } from '../documents/collections';
import type { IndexedDocument } from '../records';

/** A scope turned into the documents it admits, with what it named that is not in the library. */
export interface ResolvedScope {
  /** Null for the whole library. */
  documentIds: Set<string> | null;
  /** What was searched, in the user's words. */
  searched: string;
  /** Collection members whose file or folder is no longer in the library. */
  missing: string[];
}

/** Whether a path is `target` or lies under the folder `target`; made once per target, asked per document. */
function within(target: string): (path: string) => boolean {
  const folder = target.endsWith(sep) ? target : target + sep;
  return (path) => path === target || path.startsWith(folder);
}

/**
 * Resolves a scope against the library's documents and collections. A file or folder named directly
 * that holds no document is an error (it moved or was deleted: searching nothing would mislead); a
 * collection's vanished members are reported in `missing`, and a scope left with no document at all
 * is an error too.
 */
export function resolveScope(
  scope: Scope | null | undefined,
  documents: readonly IndexedDocument[],
  collections: Pick<CollectionStore, 'get'>,
): ResolvedScope {
  if (!scope || isWholeLibrary(scope))
    return { documentIds: null, searched: 'the whole library', missing: [] };
  const ids = new Set<string>();
  if (scope.documents?.length) {
    const byId = new Set(documents.map((d) => d.id));
    for (const id of scope.documents) {
      if (!byId.has(id))
        throw new QuireError('not_found', `The document "${id}" is no longer in the library.`);
      ids.add(id);
    }
  }
  const admit = (target: string): boolean => {
    const holds = within(target);
    let found = false;
    for (const document of documents) {
      if (holds(document.path)) {
        ids.add(document.id);
        found = true;
      }
    }
    return found;
  };
  for (const path of scope.paths ?? []) {
    if (!admit(path))
      throw new QuireError('not_found', `${path} is not in the library (moved or deleted?).`, {
        suggestion: 'Pick a file or folder the library shows, or add its folder to the library.',
      });
  }
  const missing: string[] = [];
  for (const name of scope.collections ?? []) {
    const collection = collections.get(name);
    if (!collection) throw new QuireError('not_found', `There is no collection "${name}".`);
    for (const path of collection.paths) if (!admit(path)) missing.push(path);
  }
  if (ids.size === 0) {
    const why =
      missing.length > 0
        ? `its files are no longer in the library (${missing.join(', ')})`
        : 'it holds no documents';
    throw new QuireError('not_found', `Nothing to search in this scope: ${why}.`, {
      suggestion: 'Add documents to the collection, or ask the whole library.',
    });
  }
  return { documentIds: ids, searched: describeScope(scope, missing), missing };
}

/** The scope in the user's words, with what it names that is gone. */
export function describeScope(scope: Scope, missing: string[] = []): string {
  const text = scopeLabel(scope);
  return missing.length > 0 ? `${text} (not found now: ${missing.join(', ')})` : text;
}
