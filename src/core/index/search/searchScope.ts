import type { ContentOwners } from '../documents/documentCatalog';
import type { IndexedDocument } from '../records';
import { sqlIn, sqlNotIn } from '../sql';

export interface SearchFilter {
  documentIds?: string[];
  rootIds?: string[];
}

/** Which visible content a search may return, and the cheapest SQL filter that says so. */
export interface SearchScope {
  /** Prefilter for content tables, null when every row qualifies. */
  where: string | null;
  allowed: Set<string>;
  /** Whether `where` alone guarantees visibility (otherwise results are filtered afterwards). */
  exact: boolean;
}

/** Past this many hashes an IN list costs more than it saves: filter after the query instead. */
const MAX_FILTER_HASHES = 2000;

/**
 * `stored` names every hash that has rows now (documents' and those still being written); what is
 * stored but not allowed is filtered out in SQL when that list is short enough.
 */
export function scopeFor(
  owners: ContentOwners,
  stored: Set<string>,
  filter: SearchFilter | undefined,
): SearchScope {
  const documentIds = filter?.documentIds ? new Set(filter.documentIds) : null;
  const rootIds = filter?.rootIds ? new Set(filter.rootIds) : null;
  const allowed = new Set<string>();
  for (const [hash, documents] of owners.owners()) {
    if (
      documents.some((d) => (!documentIds || documentIds.has(d.id)) && (!rootIds || rootIds.has(d.rootId)))
    ) {
      allowed.add(hash);
    }
  }
  if (documentIds !== null || rootIds !== null) {
    return allowed.size <= MAX_FILTER_HASHES
      ? { where: sqlIn('content_hash', allowed), allowed, exact: true }
      : { where: null, allowed, exact: false };
  }
  const hidden = [...stored].filter((hash) => !allowed.has(hash));
  if (hidden.length === 0) return { where: null, allowed, exact: true };
  if (hidden.length <= MAX_FILTER_HASHES)
    return { where: sqlNotIn('content_hash', hidden), allowed, exact: true };
  if (allowed.size <= MAX_FILTER_HASHES)
    return { where: sqlIn('content_hash', allowed), allowed, exact: true };
  return { where: null, allowed, exact: false };
}

/** The document a hit on this content is shown as: the first owner the filter admits. */
export function ownerFor(
  owners: ContentOwners,
  contentHash: string,
  filter: SearchFilter | undefined,
): IndexedDocument | undefined {
  const list = owners.owners().get(contentHash) ?? [];
  return (
    list.find(
      (d) =>
        (!filter?.documentIds || filter.documentIds.includes(d.id)) &&
        (!filter?.rootIds || filter.rootIds.includes(d.rootId)),
    ) ?? list[0]
  );
}
