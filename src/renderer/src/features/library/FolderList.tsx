import { useMemo } from 'react';
import type { LibrarySnapshot } from '../../../../shared/domain/library';
import { FolderItem } from './FolderItem';
import { documentsByRoot, skippedByRoot } from './libraryView';

const NO_DOCUMENTS: never[] = [];

export function FolderList({ snapshot }: { snapshot: LibrarySnapshot }) {
  const groups = useMemo(() => documentsByRoot(snapshot.documents), [snapshot.documents]);
  const skipped = useMemo(() => skippedByRoot(snapshot.skipped), [snapshot.skipped]);
  return (
    <ul className="folder-list" data-testid="folder-list" aria-label="Library folders">
      {snapshot.roots.map((root) => (
        <FolderItem
          key={root.id}
          root={root}
          documents={groups.get(root.id) ?? NO_DOCUMENTS}
          skipped={skipped.get(root.id) ?? NO_DOCUMENTS}
        />
      ))}
    </ul>
  );
}
