import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { canOpenInSystemViewer, quire } from '../../ipc/client';
import { describePageText } from '../../lib/textProvenance';
import { useDocumentPageCount } from '../library/libraryStore';
import { toHighlightRects, pageKey } from './highlightBoxes';
import { pageImageSource } from './pageImageSource';
import { usePagesStore, type ViewerTarget } from './pagesStore';
import { TextLayer } from './TextLayer';
import { TextPage } from './TextPage';
import { AskAboutButton } from '../chat/AskAboutButton';
import { ThumbnailStrip } from './ThumbnailStrip';
import { useCitedHighlight } from './useCitedHighlight';
import { usePageZoom } from './usePageZoom';
import './pages.css';

/** As app.css's narrow layout: below it the viewer takes the whole window. */
const NARROW_QUERY = '(max-width: 719px)';

/** The page a citation points at, with the cited sentence highlighted, zoomable, its text selectable. */
export function PageViewer() {
  const viewer = usePagesStore((state) => state.viewer);
  return viewer ? <PageViewerDialog target={viewer} /> : null;
}

function PageViewerDialog({ target }: { target: ViewerTarget }) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const stageRef = useRef<HTMLDivElement>(null);
  const closeRef = useRef<HTMLButtonElement>(null);
  const closeViewer = usePagesStore((state) => state.closeViewer);
  const goToPage = usePagesStore((state) => state.goToPage);
  const load = usePagesStore((state) => state.load);
  const loadWords = usePagesStore((state) => state.loadWords);
  const imageFailed = usePagesStore((state) => state.imageFailed);
  const key = pageKey(target.documentId, target.page, 'full');
  const image = usePagesStore((state) => state.images[key]);
  const text = usePagesStore((state) => state.texts[key]);
  const words = usePagesStore((state) => state.words[key]);
  const error = usePagesStore((state) => state.errors[key] ?? null);
  const pageCount = useDocumentPageCount(target.documentId);
  const zoom = usePageZoom(stageRef);
  // A narrow window has no room beside the page for the strip: it stays one click away.
  const [showThumbnails, setShowThumbnails] = useState(() => !window.matchMedia(NARROW_QUERY).matches);
  const [openProblem, setOpenProblem] = useState<string | null>(null);
  const highlight = useCitedHighlight(target, words);
  const rects = useMemo(
    () => (image ? toHighlightRects(highlight.boxes, image.pageWidth, image.pageHeight) : []),
    [highlight.boxes, image],
  );

  // No close() on cleanup: unmounting removes the dialog from the top layer, while closing would fire a
  // close event that StrictMode's rehearsal unmount turns into closing the viewer for real.
  useEffect(() => {
    const dialog = dialogRef.current;
    if (dialog && !dialog.open) dialog.showModal();
    // showModal focuses the first button; Close is where a keyboard user expects to start.
    closeRef.current?.focus();
  }, []);

  useEffect(() => {
    void load(target.documentId, target.page, 'full');
    void loadWords(target.documentId, target.page);
  }, [target.documentId, target.page, load, loadWords]);

  // Brings the highlight into view once the image has its size (before that every position is 0).
  const [drawnKey, setDrawnKey] = useState<string | null>(null);
  const drawn = drawnKey === key;
  const firstHighlight = rects[0]?.topPercent;
  useEffect(() => {
    if (firstHighlight === undefined || !drawn) return;
    stageRef.current
      ?.querySelector('[data-testid="page-highlight"]')
      ?.scrollIntoView({ block: 'center', inline: 'nearest' });
  }, [firstHighlight, drawn, zoom.fitWidth]);

  const provenance = image ? describePageText(image.textSource) : null;
  const hasPrevious = target.page > 1;
  const hasNext = pageCount === null || target.page < pageCount;

  function onKeyDown(event: KeyboardEvent<HTMLDialogElement>) {
    if (event.target instanceof HTMLInputElement) return;
    if (event.ctrlKey || event.metaKey) {
      const action =
        event.key === '=' || event.key === '+'
          ? zoom.zoomIn
          : event.key === '-'
            ? zoom.zoomOut
            : event.key === '0'
              ? zoom.fitToWidth
              : null;
      if (action) {
        event.preventDefault();
        action();
      }
      return;
    }
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

  async function openInSystemViewer() {
    const result = await quire['pages.openExternal']({ documentId: target.documentId });
    setOpenProblem(result.ok ? null : result.error.message);
  }

  const frameWidth = zoom.fitWidth > 0 ? Math.round(zoom.fitWidth * zoom.scale) : undefined;

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
        <div className="page-viewer__tools" data-testid="page-viewer-tools">
          <button
            type="button"
            className="button button--small"
            aria-pressed={showThumbnails}
            data-testid="toggle-thumbnails"
            onClick={() => setShowThumbnails((shown) => !shown)}
          >
            Pages
          </button>
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
          <button
            type="button"
            className="button button--small"
            aria-label="Zoom out"
            title="Zoom out (Ctrl −)"
            data-testid="zoom-out"
            onClick={zoom.zoomOut}
          >
            −
          </button>
          <span className="page-viewer__zoom" data-testid="zoom-level" aria-live="polite">
            {Math.round(zoom.scale * 100)}%
          </span>
          <button
            type="button"
            className="button button--small"
            aria-label="Zoom in"
            title="Zoom in (Ctrl +)"
            data-testid="zoom-in"
            onClick={zoom.zoomIn}
          >
            +
          </button>
          <button
            type="button"
            className="button button--small"
            title="Fit the page to the viewer's width (Ctrl 0)"
            data-testid="zoom-fit"
            onClick={zoom.fitToWidth}
          >
            Fit width
          </button>
          {/* A browser cannot hand a file to the system's viewer: only the desktop app offers it. */}
          {canOpenInSystemViewer && (
            <button
              type="button"
              className="button button--small"
              data-testid="open-external"
              onClick={() => void openInSystemViewer()}
            >
              Open in the system viewer
            </button>
          )}
        </div>
        {/* Beside the title on a narrow window (pages.css), where the tools wrap below: the way back. */}
        <button
          type="button"
          className="button button--small page-viewer__close"
          data-testid="page-viewer-close"
          ref={closeRef}
          onClick={() => dialogRef.current?.close()}
        >
          Close
        </button>
      </header>
      {(provenance || highlight.note || openProblem) && (
        <div className="page-viewer__notes small">
          {provenance && <p data-testid="page-provenance">{provenance}</p>}
          {highlight.note && <p data-testid="highlight-note">{highlight.note}</p>}
          {openProblem && (
            <p className="error-message" role="alert" data-testid="open-external-problem">
              {openProblem}
            </p>
          )}
        </div>
      )}
      <div className="page-viewer__body">
        {showThumbnails && pageCount !== null && pageCount > 1 && (
          <ThumbnailStrip
            documentId={target.documentId}
            pageCount={pageCount}
            current={target.page}
            onPick={goToPage}
          />
        )}
        {/* Focusable so the keyboard can scroll a zoomed page. */}
        <div
          className="page-viewer__stage"
          ref={stageRef}
          data-testid="page-stage"
          role="region"
          aria-label={`Page ${target.page}`}
          tabIndex={0}
        >
          {image ? (
            <div
              className="page-viewer__page-frame"
              data-testid="page-frame"
              style={frameWidth ? { width: frameWidth } : undefined}
            >
              <img
                className="page-viewer__image"
                src={pageImageSource(image)}
                alt={`Page ${target.page} of ${target.title}`}
                data-testid="page-image"
                data-page-width={image.pageWidth}
                data-page-height={image.pageHeight}
                draggable={false}
                onLoad={() => setDrawnKey(key)}
                onError={() => imageFailed(target.documentId, target.page, 'full')}
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
              {typeof words === 'object' && (
                <TextLayer words={words.words} pageWidth={words.pageWidth} pageHeight={words.pageHeight} />
              )}
            </div>
          ) : text ? (
            <div style={frameWidth ? { width: frameWidth, margin: '0 auto' } : undefined}>
              <p className="page-viewer__note muted" data-testid="page-text-note">
                {text.reason}
              </p>
              <TextPage page={text} highlights={highlight.boxes} />
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
      </div>
    </dialog>
  );
}
