import type { Scope } from '../../../shared/domain/scope';
import type { ContentOwners } from '../documents/documentCatalog';
import type { IndexedDocument } from '../records';
import { sqlIn, sqlNotIn } from '../sql';
import { inBatches } from '../tableIo';
import type { ResolvedScope } from './scopeResolver';

export interface SearchFilter {
  documentIds?: string[];
  rootIds?: string[];
  /** The caller's scope (documents, files and folders, collections), resolved by the index. */
  scope?: Scope;
  /**
   * The caller's scope as it already resolved it (Searcher.resolveScope), used instead of `scope`: a
   * question searched in several forms resolves its scope once.
   */
  resolvedScope?: ResolvedScope;
}

/** Which visible content a search may return, and the SQL prefilter that says so. */
export interface ContentScope {
  /** Prefilter for content tables, null when every row qualifies. */
  where: string | null;
  allowed: Set<string>;
  /** Which documents a hit may be shown as; null when any indexed document may. */
  admits: ((document: IndexedDocument) => boolean) | null;
}

/** Hashes per IN list: long lists are split and joined with OR (or AND for NOT IN). */
const HASHES_PER_LIST = 1000;

/**
 * `stored` names every hash that has rows now (documents' and those still being written), asked for
 * only when nothing narrows the search (a set of every hash is not built for a scoped one);
 * `inScope` the documents the caller's scope admits (null: all). The result's `where` is always
 * exact, so LanceDB applies it before ranking and a scoped search ranks only scoped rows.
 */
export function scopeFor(
  owners: ContentOwners,
  stored: () => Set<string>,
  filter: SearchFilter | undefined,
  inScope: Set<string> | null = null,
): ContentScope {
  const admits = admitted(filter, inScope);
  const allowed = new Set<string>();
  for (const [hash, list] of owners.owners()) {
    if (!admits || list.some(admits)) allowed.add(hash);
  }
  if (admits) return { where: anyOf(allowed), allowed, admits };
  const hidden = [...stored()].filter((hash) => !allowed.has(hash));
  if (hidden.length === 0) return { where: null, allowed, admits };
  // Whichever list is shorter says the same thing.
  const where =
    hidden.length <= allowed.size
      ? inBatches(hidden, HASHES_PER_LIST)
          .map((batch) => sqlNotIn('content_hash', batch))
          .join(' AND ')
      : anyOf(allowed);
  return { where, allowed, admits };
}

function anyOf(hashes: Set<string>): string {
  const lists = inBatches([...hashes], HASHES_PER_LIST).map((batch) => sqlIn('content_hash', batch));
  if (lists.length === 0) return 'false';
  return lists.length === 1 ? lists[0]! : `(${lists.join(' OR ')})`;
}

/** Whether a document passes every filter, or null when nothing narrows the library. */
function admitted(
  filter: SearchFilter | undefined,
  inScope: Set<string> | null,
): ((document: IndexedDocument) => boolean) | null {
  const rootIds = filter?.rootIds ? new Set(filter.rootIds) : null;
  const ids = filter?.documentIds ? new Set(filter.documentIds) : null;
  if (!rootIds && !ids && !inScope) return null;
  return (d) =>
    (!ids || ids.has(d.id)) && (!inScope || inScope.has(d.id)) && (!rootIds || rootIds.has(d.rootId));
}

/** The document a hit on this content is shown as: the first owner the scope admits. */
export function ownerFor(
  owners: ContentOwners,
  contentHash: string,
  scope: Pick<ContentScope, 'admits'>,
): IndexedDocument | undefined {
  const list = owners.owners().get(contentHash) ?? [];
  return list.find((d) => !scope.admits || scope.admits(d)) ?? list[0];
}
