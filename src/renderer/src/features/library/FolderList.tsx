import { memo, useMemo } from 'react';
import type { LibraryListing } from '../../../../shared/domain/library';
import { FolderItem } from './FolderItem';
import {
  documentsByRoot,
  filterDocuments,
  isFiltering,
  skippedByRoot,
  type DocumentFilter,
} from './libraryView';

const NO_DOCUMENTS: never[] = [];

/** Drawn again only when the library or the filter changes, not on each progress update. */
export const FolderList = memo(function FolderList({
  snapshot,
  filter,
}: {
  snapshot: LibraryListing;
  filter: DocumentFilter;
}) {
  const groups = useMemo(() => documentsByRoot(snapshot.documents), [snapshot.documents]);
  const shown = useMemo(
    () => new Map([...groups].map(([rootId, docs]) => [rootId, filterDocuments(docs, filter)])),
    [groups, filter],
  );
  const skipped = useMemo(() => skippedByRoot(snapshot.skipped), [snapshot.skipped]);
  return (
    <ul className="folder-list" data-testid="folder-list" aria-label="Library folders">
      {snapshot.roots.map((root) => (
        <FolderItem
          key={root.id}
          root={root}
          documents={groups.get(root.id) ?? NO_DOCUMENTS}
          shown={shown.get(root.id) ?? NO_DOCUMENTS}
          filtering={isFiltering(filter)}
          skipped={skipped.get(root.id) ?? NO_DOCUMENTS}
          complete={snapshot.omitted === undefined}
        />
      ))}
    </ul>
  );
});
