import type { DocumentInfo, LibraryChange, LibraryListing } from '../../../../shared/domain/library';
import { compareLibraryPaths, isInLibraryOrder } from '../../../../shared/domain/libraryOrder';

const byPath = compareLibraryPaths;

/**
 * A listing as the window keeps it: documents in library order. The engine sends them so, which a
 * linear check confirms; they are sorted here only when it did not (another locale's collation).
 */
export function inLibraryOrder(listing: LibraryListing): LibraryListing {
  if (isInLibraryOrder(listing.documents, (doc) => doc.path)) return listing;
  return { ...listing, documents: [...listing.documents].sort((a, b) => byPath(a.path, b.path)) };
}

/** Two lists sorted by path, merged in one pass; joined end to end when one follows the other (a page). */
function mergeByPath(a: readonly DocumentInfo[], b: readonly DocumentInfo[]): DocumentInfo[] {
  const lastOfA = a.at(-1);
  const firstOfB = b[0];
  if (!lastOfA || !firstOfB || byPath(lastOfA.path, firstOfB.path) <= 0) return [...a, ...b];
  const merged: DocumentInfo[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) merged.push(byPath(a[i]!.path, b[j]!.path) <= 0 ? a[i++]! : b[j++]!);
  while (i < a.length) merged.push(a[i++]!);
  while (j < b.length) merged.push(b[j++]!);
  return merged;
}

/**
 * The listing after a change, still in library order, without sorting it again: changed documents
 * stay where they are and new ones are merged in. Null when the change does not start where the listing is (a
 * change was missed): the caller lists the library again. A change the listing already holds is
 * returned as is.
 */
export function applyLibraryChange(listing: LibraryListing, change: LibraryChange): LibraryListing | null {
  return applyLibraryChanges(listing, [change]);
}

/**
 * The listing after changes that follow one another, in one pass over its documents however many
 * there are: a frame's worth of changes costs one copy of a 10,000-document listing, not one each.
 * Changes the listing already holds are passed over; null when one does not start where the one
 * before it ended (a change was missed).
 */
export function applyLibraryChanges(
  listing: LibraryListing,
  changes: readonly LibraryChange[],
): LibraryListing | null {
  const changed = new Map<string, DocumentInfo>();
  const gone = new Set<string>();
  let revision = listing.revision;
  let last: LibraryChange | null = null;
  for (const change of changes) {
    if (change.to <= revision) continue;
    if (change.from !== revision) return null;
    for (const id of change.removed) {
      changed.delete(id);
      gone.add(id);
    }
    for (const doc of change.documents) {
      gone.delete(doc.id);
      changed.set(doc.id, doc);
    }
    revision = change.to;
    last = change;
  }
  if (!last) return listing;
  const kept: DocumentInfo[] = [];
  for (const doc of listing.documents) {
    if (gone.has(doc.id)) continue;
    const next = changed.get(doc.id);
    // A changed path moves the document; it joins the new ones, which are merged in order.
    if (next && next.path !== doc.path) continue;
    kept.push(next ?? doc);
    if (next) changed.delete(doc.id);
  }
  const added = [...changed.values()].sort((a, b) => byPath(a.path, b.path));
  return {
    roots: last.roots,
    skipped: last.skipped,
    scanning: last.scanning,
    documents: added.length > 0 ? mergeByPath(kept, added) : kept,
    revision,
    // A first part stays one: its pages are still to come.
    ...(listing.omitted !== undefined ? { omitted: listing.omitted } : {}),
  };
}

/**
 * Whether a listing should replace the one held. Listings are numbered: an older one than what changes
 * already brought is not taken, and a first part does not replace the whole of the same revision.
 */
export function isNewerListing(held: LibraryListing | null, next: LibraryListing): boolean {
  if (!held || next.revision > held.revision) return true;
  return next.revision === held.revision && held.omitted !== undefined && next.omitted === undefined;
}

/**
 * The listing with the next page of it joined in: `page` holds the documents after the last one of the
 * page before. Documents the held listing got from changes meanwhile are replaced by the page's. Null
 * when the page is of another revision than the listing: the caller lists the whole library again.
 */
export function withPage(held: LibraryListing, page: LibraryListing): LibraryListing | null {
  if (page.revision !== held.revision) return null;
  const inPage = new Set(page.documents.map((doc) => doc.id));
  const kept = held.documents.filter((doc) => !inPage.has(doc.id));
  const { omitted, ...rest } = page;
  return {
    ...rest,
    documents: mergeByPath(kept, page.documents),
    ...(omitted !== undefined ? { omitted } : {}),
  };
}
