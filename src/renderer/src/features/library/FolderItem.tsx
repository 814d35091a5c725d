import { useId, useMemo, useState } from 'react';
import type { DocumentInfo, LibraryRoot, SkippedFile } from '../../../../shared/domain/library';
import { ErrorMessage } from '../../components/ErrorMessage';
import { MiddleName } from '../../components/MiddleName';
import { fileName, plural } from '../../lib/format';
import { useAction } from '../../lib/useAction';
import { AskAboutButton } from '../chat/AskAboutButton';
import { AddToCollection } from '../collections/AddToCollection';
import { DocumentList } from './DocumentList';
import { useLibraryStore } from './libraryStore';
import { SkippedFiles } from './SkippedFiles';
import { summarizeStates } from './libraryView';

interface FolderItemProps {
  root: LibraryRoot;
  /** Every document of the folder. */
  documents: readonly DocumentInfo[];
  /** Those the filter lets through, in the order chosen; all of them when not filtering. */
  shown: readonly DocumentInfo[];
  filtering: boolean;
  skipped: readonly SkippedFile[];
  /** False while only the library's first rows are here: counts wait for the rest. */
  complete: boolean;
}

export function FolderItem({ root, documents, shown, filtering, skipped, complete }: FolderItemProps) {
  const removeFolder = useLibraryStore((state) => state.removeFolder);
  const { run, busy, error } = useAction(removeFolder);
  const [expanded, setExpanded] = useState(true);
  const [confirming, setConfirming] = useState(false);
  const listId = useId();
  const name = fileName(root.path);
  // Counted again only when the folder's documents change, not on each redraw of the folder.
  const summary = useMemo(() => summarizeStates(documents), [documents]);
  const count = !complete
    ? '…'
    : filtering
      ? `${shown.length} of ${documents.length}`
      : `${documents.length}`;

  return (
    <li className="folder-item" data-testid="folder-item" data-root-id={root.id}>
      <div className="folder-item__head">
        <button
          type="button"
          className="folder-item__toggle"
          aria-expanded={expanded}
          aria-controls={listId}
          // The name is drawn in two pieces to lose its middle; it is read whole, and the label holds
          // the visible text word for word (name, a space, the count) as speech input needs.
          aria-label={`${name} ${count}`}
          onClick={() => setExpanded(!expanded)}
        >
          <span className="disclosure" aria-hidden="true" />
          <MiddleName name={name} title={root.path} className="folder-item__name" />{' '}
          <span className="folder-item__count" data-testid="folder-count" aria-busy={!complete}>
            {count}
          </span>
        </button>
        <span className="folder-item__actions">
          <AskAboutButton scope={{ paths: [root.path] }} name={name} />
          <AddToCollection path={root.path} name={name} />
          <button
            type="button"
            className="button button--small button--quiet"
            aria-label={`Remove folder ${root.path}`}
            aria-expanded={confirming}
            disabled={busy}
            data-testid="remove-folder-button"
            onClick={() => setConfirming(true)}
          >
            Remove
          </button>
        </span>
      </div>
      {confirming && (
        <div className="folder-item__confirm" role="alertdialog" aria-label={`Remove ${name}?`}>
          <p className="small">
            Remove {name} from the library? Its {plural(documents.length, 'document')} leave the index and
            their page images are deleted; the files in the folder stay.
          </p>
          <div className="button-row">
            <button
              type="button"
              className="button button--small button--primary"
              data-testid="confirm-remove-folder"
              disabled={busy}
              onClick={() => void run(root.id).then(() => setConfirming(false))}
            >
              Remove
            </button>
            <button
              type="button"
              className="button button--small button--quiet"
              data-testid="cancel-remove-folder"
              autoFocus
              onClick={() => setConfirming(false)}
            >
              Keep it
            </button>
          </div>
        </div>
      )}
      <p className="folder-item__path muted small" title={root.path}>
        {/* The paragraph is right-to-left so long paths lose their start, not their end. */}
        <bdi>{root.path}</bdi>
      </p>
      {complete && documents.length > 0 && <p className="folder-item__summary small">{summary}</p>}
      {root.error && (
        <p className="folder-item__error" data-testid="folder-error">
          {root.error}
        </p>
      )}
      <SkippedFiles rootPath={root.path} skipped={skipped} />
      <ErrorMessage error={error} />
      {expanded && <DocumentList documents={shown} filtering={filtering} complete={complete} id={listId} />}
    </li>
  );
}
