import type { DownloadProgress } from '../../../../shared/domain/models';
import { ErrorMessage } from '../../components/ErrorMessage';
import { ProgressBar } from '../../components/ProgressBar';
import { formatBytes, formatEta, formatRate, percent } from '../../lib/format';
import { useAction } from '../../lib/useAction';
import { useModelsStore } from './modelsStore';

const STATE_LABELS: Record<DownloadProgress['state'], string> = {
  queued: 'Queued',
  downloading: 'Downloading',
  paused: 'Paused',
  done: 'Done',
  failed: 'Failed',
  cancelled: 'Cancelled',
};

/** Every download and Ollama pull of this session; new ones start from the setup. */
export function DownloadList({ downloads }: { downloads: readonly DownloadProgress[] }) {
  if (downloads.length === 0)
    return <p className="muted small">Nothing is downloading. Set up models to fetch the proposed set.</p>;
  return (
    <ul className="download-list">
      {downloads.map((download) => (
        <DownloadItem key={download.id} download={download} />
      ))}
    </ul>
  );
}

function DownloadItem({ download }: { download: DownloadProgress }) {
  const pause = useAction(useModelsStore((state) => state.pauseDownload));
  const resume = useAction(useModelsStore((state) => state.resumeDownload));
  const cancel = useAction(useModelsStore((state) => state.cancelDownload));
  const active = download.state === 'downloading' || download.state === 'queued';
  const value = download.bytesTotal ? percent(download.bytesDone, download.bytesTotal) : null;
  const sizeText = download.bytesTotal
    ? `${formatBytes(download.bytesDone)} of ${formatBytes(download.bytesTotal)}`
    : formatBytes(download.bytesDone);

  return (
    <li className="download-item" data-testid="download-item" data-state={download.state}>
      <div className="download-item__head">
        <span className="download-item__model">
          {download.source === 'ollama' ? `${download.model}, through Ollama` : download.model}
        </span>
        <span className="muted small">{STATE_LABELS[download.state]}</span>
      </div>
      {download.state !== 'done' && download.state !== 'cancelled' && (
        <ProgressBar
          value={download.state === 'queued' ? null : value}
          label={`Download of ${download.model}`}
          testId="download-progress"
          tone={download.state === 'paused' ? 'muted' : 'accent'}
        />
      )}
      <p className="muted small">
        {sizeText}
        {download.state === 'downloading' && download.bytesPerSecond > 0 && (
          <>
            {' '}
            · {formatRate(download.bytesPerSecond / 1e6, 'MB')} · {formatEta(download.etaSeconds)}
          </>
        )}
      </p>
      {download.error && <p className="document-item__error">{download.error}</p>}
      <div className="button-row">
        {download.state === 'downloading' && (
          <button
            type="button"
            className="button button--small"
            disabled={pause.busy}
            onClick={() => void pause.run(download.id)}
          >
            Pause
          </button>
        )}
        {(download.state === 'paused' || download.state === 'failed') && (
          <button
            type="button"
            className="button button--small"
            disabled={resume.busy}
            onClick={() => void resume.run(download.id)}
          >
            Resume
          </button>
        )}
        {(active || download.state === 'paused') && (
          <button
            type="button"
            className="button button--small button--quiet"
            disabled={cancel.busy}
            onClick={() => void cancel.run(download.id)}
          >
            Cancel
          </button>
        )}
      </div>
      <ErrorMessage error={pause.error ?? resume.error ?? cancel.error} />
    </li>
  );
}
