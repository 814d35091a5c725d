import type { IndexProgress } from '../../../../shared/domain/library';
import { ErrorMessage } from '../../components/ErrorMessage';
import { ProgressBar } from '../../components/ProgressBar';
import { fileName } from '../../lib/format';
import { useAction } from '../../lib/useAction';
import { useLibraryStore } from './libraryStore';
import { describeProgress } from './libraryView';

export function IndexingProgress({ progress }: { progress: IndexProgress }) {
  const pause = useLibraryStore((state) => state.pause);
  const resume = useLibraryStore((state) => state.resume);
  const pauseAction = useAction(pause);
  const resumeAction = useAction(resume);
  const cancelAction = useAction(useLibraryStore((state) => state.cancel));
  const view = describeProgress(progress);
  // The text of every file is in; scanned pages are being recognised and page images drawn.
  const drawingOnly = view.finished && (view.drawing !== null || view.recognizing !== null);
  const title = view.paused
    ? 'Indexing paused'
    : drawingOnly
      ? 'Everything is searchable'
      : view.finished
        ? 'Everything is indexed'
        : 'Indexing';

  return (
    <section className="indexing" aria-label="Indexing progress" data-testid="indexing">
      <div className="indexing__head">
        <h3 className="indexing__title">{title}</h3>
        {(!view.finished || drawingOnly) && (
          <div className="button-row">
            {view.paused ? (
              <button
                type="button"
                className="button button--small"
                disabled={resumeAction.busy}
                data-testid="resume-indexing"
                onClick={() => void resumeAction.run()}
              >
                Resume
              </button>
            ) : (
              <button
                type="button"
                className="button button--small"
                disabled={pauseAction.busy}
                data-testid="pause-indexing"
                onClick={() => void pauseAction.run()}
              >
                Pause
              </button>
            )}
            <button
              type="button"
              className="button button--small button--quiet"
              disabled={cancelAction.busy}
              data-testid="cancel-indexing"
              title="Stop indexing the files waiting now; they are indexed again when they change or Quire restarts"
              onClick={() => void cancelAction.run()}
            >
              Cancel
            </button>
          </div>
        )}
      </div>
      <ProgressBar
        value={view.percent}
        label="Indexing progress"
        testId="progress-bar"
        tone={view.paused ? 'muted' : 'accent'}
      />
      <p className="indexing__numbers small" data-testid="progress-text">
        {[view.files, view.pages, view.rate, view.eta, view.recognizing, view.drawing]
          .filter((part) => part !== null)
          .join(' · ')}
      </p>
      {progress.currentPath && (!view.finished || drawingOnly) && !view.paused && (
        <p className="indexing__current muted small" title={progress.currentPath}>
          {drawingOnly ? (view.recognizing ? 'Recognising' : 'Drawing') : 'Reading'}{' '}
          {fileName(progress.currentPath)}
        </p>
      )}
      <ErrorMessage error={pauseAction.error ?? resumeAction.error ?? cancelAction.error} />
    </section>
  );
}
