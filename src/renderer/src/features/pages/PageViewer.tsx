import { useEffect, useMemo, useRef, type KeyboardEvent } from 'react';
import { describePageText } from '../../lib/textProvenance';
import { useDocumentPageCount } from '../library/libraryStore';
import { toHighlightRects, pageKey } from './highlightBoxes';
import { usePagesStore, type ViewerTarget } from './pagesStore';
import { TextPage } from './TextPage';
import { AskAboutButton } from '../chat/AskAboutButton';
import './pages.css';

/** The page a citation points at, full size, with the cited regions highlighted. */
export function PageViewer() {
  const viewer = usePagesStore((state) => state.viewer);
  return viewer ? <PageViewerDialog target={viewer} /> : null;
}

const NO_BOXES: never[] = [];

function PageViewerDialog({ target }: { target: ViewerTarget }) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const closeViewer = usePagesStore((state) => state.closeViewer);
  const goToPage = usePagesStore((state) => state.goToPage);
  const load = usePagesStore((state) => state.load);
  const key = pageKey(target.documentId, target.page, 'full');
  const image = usePagesStore((state) => state.images[key]);
  const text = usePagesStore((state) => state.texts[key]);
  const error = usePagesStore((state) => state.errors[key] ?? null);
  const pageCount = useDocumentPageCount(target.documentId);
  const boxes = target.highlight?.page === target.page ? target.highlight.boxes : NO_BOXES;
  const rects = useMemo(
    () => (image ? toHighlightRects(boxes, image.pageWidth, image.pageHeight) : []),
    [boxes, image],
  );

  // No close() on cleanup: unmounting removes the dialog from the top layer, while closing would fire a
  // close event that StrictMode's rehearsal unmount turns into closing the viewer for real.
  useEffect(() => {
    const dialog = dialogRef.current;
    if (dialog && !dialog.open) dialog.showModal();
  }, []);

  useEffect(() => {
    void load(target.documentId, target.page, 'full');
  }, [target.documentId, target.page, load]);

  const provenance = image ? describePageText(image.textSource) : null;
  const hasPrevious = target.page > 1;
  const hasNext = pageCount === null || target.page < pageCount;

  function onKeyDown(event: KeyboardEvent<HTMLDialogElement>) {
    if (event.target instanceof HTMLInputElement) return;
    if ((event.key === 'ArrowLeft' || event.key === 'PageUp') && hasPrevious) {
      event.preventDefault();
      goToPage(target.page - 1);
    } else if ((event.key === 'ArrowRight' || event.key === 'PageDown') && hasNext) {
      event.preventDefault();
      goToPage(target.page + 1);
    } else if (event.key === 'Home') {
      event.preventDefault();
      goToPage(1);
    } else if (event.key === 'End' && pageCount !== null) {
      event.preventDefault();
      goToPage(pageCount);
    }
  }

  return (
    <dialog
      ref={dialogRef}
      className="page-viewer"
      data-testid="page-viewer"
      aria-label={`${target.title}, page ${target.page}`}
      onClose={closeViewer}
      onKeyDown={onKeyDown}
    >
      <header className="page-viewer__bar">
        <h2 className="page-viewer__title" title={target.title}>
          {target.title}
        </h2>
        <AskAboutButton
          scope={{ documents: [target.documentId] }}
          name={target.title}
          onAsked={closeViewer}
        />
        <div className="page-viewer__nav">
          <button
            type="button"
            className="button button--small"
            aria-label="Previous page"
            disabled={!hasPrevious}
            data-testid="page-previous"
            onClick={() => goToPage(target.page - 1)}
          >
            ←
          </button>
          <span className="page-viewer__page" data-testid="page-number" aria-live="polite">
            Page {target.page}
            {pageCount !== null && ` of ${pageCount}`}
          </span>
          <button
            type="button"
            className="button button--small"
            aria-label="Next page"
            disabled={!hasNext}
            data-testid="page-next"
            onClick={() => goToPage(target.page + 1)}
          >
            →
          </button>
        </div>
        <button
          type="button"
          className="button button--small"
          data-testid="page-viewer-close"
          autoFocus
          onClick={() => dialogRef.current?.close()}
        >
          Close
        </button>
      </header>
      {provenance && (
        <p className="page-viewer__provenance small" data-testid="page-provenance">
          {provenance}
        </p>
      )}
      <div className="page-viewer__stage">
        {image ? (
          <div className="page-viewer__page-frame">
            <img
              className="page-viewer__image"
              src={image.dataUrl}
              alt={`Page ${target.page} of ${target.title}`}
              data-testid="page-image"
              data-page-width={image.pageWidth}
              data-page-height={image.pageHeight}
            />
            {rects.map((rect, index) => (
              <div
                key={index}
                className="page-viewer__highlight"
                data-testid="page-highlight"
                style={{
                  left: `${rect.leftPercent}%`,
                  top: `${rect.topPercent}%`,
                  width: `${rect.widthPercent}%`,
                  height: `${rect.heightPercent}%`,
                }}
              />
            ))}
          </div>
        ) : text ? (
          <div>
            <p className="page-viewer__note muted" data-testid="page-text-note">
              {text.reason}
            </p>
            <TextPage page={text} highlights={boxes} />
          </div>
        ) : error ? (
          <div className="page-viewer__message">
            <p className="error-message" role="alert" data-testid="error-message">
              {error}
            </p>
            <button
              type="button"
              className="button"
              onClick={() => void load(target.documentId, target.page, 'full')}
            >
              Try again
            </button>
          </div>
        ) : (
          <p className="page-viewer__message muted">Rendering page {target.page}…</p>
        )}
      </div>
    </dialog>
  );
}
