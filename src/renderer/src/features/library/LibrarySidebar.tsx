import { ErrorMessage } from '../../components/ErrorMessage';
import { canDropFolders } from '../../ipc/client';
import { CollectionsList } from '../collections/CollectionsList';
import { AddFolderForm } from './AddFolderForm';
import { DropZone } from './DropZone';
import { FolderList } from './FolderList';
import { IndexingProgress } from './IndexingProgress';
import { useState } from 'react';
import { LibraryFilterBar } from './LibraryFilterBar';
import { useLibraryShown } from './libraryShown';
import { useLibraryStore } from './libraryStore';
import { NO_FILTER } from './libraryView';
import { RemovalUndo } from './RemovalUndo';
import './library.css';

/** `id` names the panel for the header's toggle, which opens it over the chat on narrow windows. */
export function LibrarySidebar({ id }: { id?: string } = {}) {
  const snapshot = useLibraryStore((state) => state.snapshot);
  const progress = useLibraryStore((state) => state.progress);
  const loadError = useLibraryStore((state) => state.loadError);
  const isEmpty = snapshot !== null && snapshot.roots.length === 0;
  const [filter, setFilter] = useState(NO_FILTER);
  // Collections are drawn (and listed) after the first rows of documents.
  const shown = useLibraryShown();

  return (
    <aside className="sidebar" aria-label="Library" id={id} tabIndex={-1}>
      <DropZone>
        <header className="panel-header">
          <h2 className="panel-title">Library</h2>
          {snapshot?.scanning && <span className="muted small">Scanning…</span>}
        </header>
        <AddFolderForm />
        {isEmpty && (
          <div className="library-empty" data-testid="library-empty">
            <p className="library-empty__title">No folders yet</p>
            <p className="muted">Drop a folder of PDFs here, or type its path.</p>
            {!canDropFolders && (
              <p className="muted small">
                Browsers keep a dropped folder's location private, so type it above.
              </p>
            )}
            <p className="muted small">Quire watches the folder and indexes every page on this machine.</p>
          </div>
        )}
        <ErrorMessage error={loadError} />
        {progress && (progress.filesTotal > 0 || progress.pagesToDraw > 0) && (
          <IndexingProgress progress={progress} />
        )}
        {snapshot === null && !loadError && <p className="muted small">Loading library…</p>}
        <RemovalUndo />
        {snapshot && snapshot.documents.length > 0 && (
          <LibraryFilterBar filter={filter} onChange={setFilter} />
        )}
        {snapshot && snapshot.roots.length > 0 && <FolderList snapshot={snapshot} filter={filter} />}
        {shown && snapshot && snapshot.roots.length > 0 && <CollectionsList />}
      </DropZone>
    </aside>
  );
}
