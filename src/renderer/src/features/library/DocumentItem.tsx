import { memo } from 'react';
import type { DocumentInfo } from '../../../../shared/domain/library';
import { ErrorMessage } from '../../components/ErrorMessage';
import { MiddleName } from '../../components/MiddleName';
import { fileName, formatBytes, formatPageCount } from '../../lib/format';
import { describeDocumentOcr } from '../../lib/textProvenance';
import { useAction } from '../../lib/useAction';
import { useChatStore } from '../chat/chatStore';
import { AddToCollection } from '../collections/AddToCollection';
import { usePagesStore } from '../pages/pagesStore';
import { useLibraryStore } from './libraryStore';
import {
  canAsk,
  canRetry,
  describeLanguage,
  showsReasonLine,
  STATE_LABELS,
  stateReason,
} from './libraryView';
import { UnlockForm } from './UnlockForm';

interface DocumentItemProps {
  document: DocumentInfo;
}

interface RowAction {
  label: string;
  testId: string;
  run: () => void;
}

/** A row is drawn again only when its document changed: a change keeps every other row's object. */
export const DocumentItem = memo(function DocumentItem({ document }: DocumentItemProps) {
  const name = fileName(document.relativePath);
  const folder = document.relativePath.slice(0, document.relativePath.length - name.length);
  const ocr = describeDocumentOcr(document.ocr);
  const language = describeLanguage(document.language);
  const retry = useAction(useLibraryStore((state) => state.retry));
  const open = () =>
    usePagesStore.getState().openViewer({ documentId: document.id, page: 1, title: name, highlight: null });
  // The row's actions, one entry each: new ones join this list.
  const actions: RowAction[] = [];
  if (canRetry(document)) {
    actions.push({ label: 'Retry', testId: 'retry-document', run: () => void retry.run(document.id) });
  }
  if (canAsk(document)) {
    actions.push({
      label: 'Ask about this',
      testId: 'ask-about-button',
      run: () => useChatStore.getState().askAbout({ paths: [document.path] }),
    });
  }
  return (
    <li
      className="document-item"
      data-testid="document-item"
      data-state={document.state}
      data-window-key={document.id}
    >
      <div className="document-item__head">
        <button
          type="button"
          className="document-item__name"
          data-testid="open-document"
          // The name is drawn in two pieces to lose its middle; it is read whole.
          aria-label={name}
          title={folder ? `${name}, in ${folder}` : document.path}
          onClick={open}
        >
          <MiddleName name={name} title={null} />
        </button>
        <span className="document-item__labels">
          <span
            className={`badge badge--${document.state}`}
            data-testid="document-state"
            title={stateReason(document)}
          >
            {STATE_LABELS[document.state]}
          </span>
        </span>
      </div>
      <div className="document-item__meta">
        <span data-testid="document-pages">{formatPageCount(document.pages)}</span>
        <span aria-hidden="true">·</span>
        <span>{formatBytes(document.bytes)}</span>
        {/* On the second line, so a long name keeps the room beside the state badge. */}
        {language && (
          <>
            <span aria-hidden="true">·</span>
            <span className="document-item__language" data-testid="document-language" title={language.title}>
              {language.label}
            </span>
          </>
        )}
        {actions.map((action) => (
          <button
            key={action.testId}
            type="button"
            className="button button--link button--small"
            data-testid={action.testId}
            disabled={retry.busy}
            aria-label={`${action.label} ${name}`}
            onClick={action.run}
          >
            {action.label}
          </button>
        ))}
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
      {showsReasonLine(document) && (
        <p
          className={document.error ? 'document-item__error' : 'document-item__reason muted small'}
          data-testid={document.error ? 'document-error' : 'document-reason'}
        >
          {stateReason(document)}
        </p>
      )}
      {document.state === 'indexed' && document.error && (
        <p className="document-item__error" data-testid="document-error">
          {document.error}
        </p>
      )}
      <ErrorMessage error={retry.error} />
      {document.state === 'needsPassword' && <UnlockForm documentId={document.id} documentName={name} />}
    </li>
  );
});
