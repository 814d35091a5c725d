import type { DocumentInfo } from '../../../../shared/domain/library';
import { WindowedList } from '../../components/WindowedList';
import { DocumentItem } from './DocumentItem';

/** A row with its name, state and one line of details. */
const ROW_HEIGHT = 80;

interface DocumentListProps {
  documents: readonly DocumentInfo[];
  filtering: boolean;
  /** False while only the library's first rows are here. */
  complete: boolean;
  id: string;
}

const keyOf = (doc: DocumentInfo) => doc.id;
const renderDocument = (doc: DocumentInfo) => <DocumentItem key={doc.id} document={doc} />;

export function DocumentList({ documents, filtering, complete, id }: DocumentListProps) {
  if (documents.length === 0) {
    return (
      <p className="muted small" id={id} data-testid="document-list-empty">
        {filtering ? 'No document here matches the filter.' : 'No documents found in this folder yet.'}
      </p>
    );
  }
  return (
    <WindowedList
      items={documents}
      keyOf={keyOf}
      renderItem={renderDocument}
      estimatedHeight={ROW_HEIGHT}
      growing={!complete}
      className="document-list"
      id={id}
      testId="document-list"
    />
  );
}
