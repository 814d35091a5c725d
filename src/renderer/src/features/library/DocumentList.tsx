import { useState } from 'react';
import type { DocumentInfo } from '../../../../shared/domain/library';
import { DocumentItem } from './DocumentItem';

/** Rendering thousands of rows at once stalls the window; reveal them in pages instead. */
const BATCH = 200;

interface DocumentListProps {
  documents: readonly DocumentInfo[];
  filtering: boolean;
  id: string;
}

export function DocumentList({ documents, filtering, id }: DocumentListProps) {
  const [shown, setShown] = useState(BATCH);
  if (documents.length === 0) {
    return (
      <p className="muted small" id={id} data-testid="document-list-empty">
        {filtering ? 'No document here matches the filter.' : 'No documents found in this folder yet.'}
      </p>
    );
  }
  const hidden = documents.length - shown;
  return (
    <>
      <ul className="document-list" data-testid="document-list" id={id}>
        {documents.slice(0, shown).map((doc) => (
          <DocumentItem key={doc.id} document={doc} />
        ))}
      </ul>
      {hidden > 0 && (
        <button type="button" className="button button--link" onClick={() => setShown(shown + BATCH)}>
          Show {Math.min(hidden, BATCH)} more of {hidden}
        </button>
      )}
    </>
  );
}
