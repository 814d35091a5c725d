import type { DocumentInfo } from '../../../../shared/domain/library';
import { fileName, formatBytes, formatPageCount } from '../../lib/format';
import { describeDocumentOcr } from '../../lib/textProvenance';
import { AskAboutButton } from '../chat/AskAboutButton';
import { AddToCollection } from '../collections/AddToCollection';
import { STATE_LABELS } from './libraryView';
import { UnlockForm } from './UnlockForm';

interface DocumentItemProps {
  document: DocumentInfo;
}

export function DocumentItem({ document }: DocumentItemProps) {
  const name = fileName(document.relativePath);
  const folder = document.relativePath.slice(0, document.relativePath.length - name.length);
  const ocr = describeDocumentOcr(document.ocr);
  return (
    <li
      className="document-item"
      data-testid="document-item"
      data-state={document.state}
      title={document.path}
    >
      <div className="document-item__head">
        <span className="document-item__name">
          {folder && <span className="document-item__folder">{folder}</span>}
          {name}
        </span>
        <span className={`badge badge--${document.state}`} data-testid="document-state">
          {STATE_LABELS[document.state]}
        </span>
      </div>
      <div className="document-item__meta">
        <span data-testid="document-pages">{formatPageCount(document.pages)}</span>
        <span aria-hidden="true">·</span>
        <span>{formatBytes(document.bytes)}</span>
        <AskAboutButton scope={{ paths: [document.path] }} name={name} />
        <AddToCollection path={document.path} name={name} />
      </div>
      {ocr && (
        <p
          className={`document-item__ocr${document.ocr?.pagesUnreadable ? ' document-item__ocr--warning' : ''}`}
          data-testid="document-ocr"
        >
          {ocr}
        </p>
      )}
      {document.error && (
        <p className="document-item__error" data-testid="document-error">
          {document.error}
        </p>
      )}
      {document.state === 'needsPassword' && <UnlockForm documentId={document.id} documentName={name} />}
    </li>
  );
}
