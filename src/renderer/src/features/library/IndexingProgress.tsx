import { useMemo } from 'react';
import type { IndexProgress } from '../../../../shared/domain/library';
import { ErrorMessage } from '../../components/ErrorMessage';
import { ProgressBar } from '../../components/ProgressBar';
import { fileName } from '../../lib/format';
import { useAction } from '../../lib/useAction';
import { useLibraryStore } from './libraryStore';
import { countLibrary, describeProgress, describeWork, progressHeadline } from './libraryView';

export function IndexingProgress({ progress }: { progress: IndexProgress }) {
  const pause = useLibraryStore((state) => state.pause);
  const resume = useLibraryStore((state) => state.resume);
  const pauseAction = useAction(pause);
  const resumeAction = useAction(resume);
  const cancelAction = useAction(useLibraryStore((state) => state.cancel));
  const documents = useLibraryStore((state) => state.snapshot?.documents);
  const library = useMemo(() => (documents ? countLibrary(documents) : null), [documents]);
  const view = describeProgress(progress, library);
  const work = describeWork(progress);
  // The text of every file is in; scanned pages are being recognised and page images drawn.
  const drawingOnly = view.finished && (view.drawing !== null || view.recognizing !== null);
  const title = progressHeadline(progress, library);

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
        {[view.files, view.pages, view.rate, view.eta].filter((part) => part !== null).join(' · ')}
      </p>
      {view.stopped && (
        <p className="indexing__stopped small" role="alert" data-testid="indexing-stopped">
          {view.stopped}
        </p>
      )}
      <ul className="indexing__work" aria-label="Work in progress">
        {work.map((line) => (
          <li key={line.kind} className="indexing__line small" data-testid="work-line" data-kind={line.kind}>
            <span className="indexing__line-label">{line.label}</span>
            <span className="indexing__line-detail">{line.detail}</span>
            {line.current && (
              <span className="indexing__current muted" title={line.current} data-testid="work-current">
                {fileName(line.current)}
              </span>
            )}
          </li>
        ))}
      </ul>
      <ErrorMessage error={pauseAction.error ?? resumeAction.error ?? cancelAction.error} />
    </section>
  );
}
