import { ErrorMessage } from '../../components/ErrorMessage';
import { ProgressBar } from '../../components/ProgressBar';
import { useAction } from '../../lib/useAction';
import type { UpdateStatus } from '../../../../shared/domain/updates';
import { useUpdatesStore } from './updatesStore';

/** The update setting (off until the user turns it on) and, when on, what the last check found. */
export function UpdatesSection() {
  const status = useUpdatesStore((state) => state.status);
  const setEnabled = useAction(useUpdatesStore((state) => state.setEnabled));
  if (!status) return null;
  return (
    <section className="panel-section" data-testid="updates">
      <h3 className="section-title">Updates</h3>
      {status.unsupportedReason ? (
        <p className="small muted" data-testid="updates-unsupported">
          {status.unsupportedReason}
        </p>
      ) : (
        <>
          <label className="checkbox">
            <input
              type="checkbox"
              checked={status.enabled}
              disabled={setEnabled.busy}
              data-testid="updates-enabled"
              onChange={(event) => void setEnabled.run(event.target.checked)}
            />
            Check for new versions of Quire
          </label>
          <p className="small muted">
            Off unless you turn it on. When on, Quire asks its GitHub releases for a newer version at start
            and every six hours. It downloads one only when you say so, and installs only a download whose
            checksum and signature match.
          </p>
          <ErrorMessage error={setEnabled.error} />
          {status.enabled && <UpdateState status={status} />}
        </>
      )}
    </section>
  );
}

function UpdateState({ status }: { status: UpdateStatus }) {
  const check = useAction(useUpdatesStore((state) => state.check));
  const download = useAction(useUpdatesStore((state) => state.download));
  const install = useAction(useUpdatesStore((state) => state.install));
  const version = status.offer?.version;
  const checkButton = (
    <button className="button button--small" disabled={check.busy} onClick={() => void check.run()}>
      Check now
    </button>
  );
  return (
    <div className="updates-state" data-testid="updates-state" data-phase={status.phase}>
      {status.phase === 'checking' && <p className="small">Checking for a new version…</p>}
      {status.phase === 'idle' && checkButton}
      {status.phase === 'up-to-date' && (
        <>
          <p className="small">Quire {status.currentVersion} is the newest version.</p>
          {checkButton}
        </>
      )}
      {status.phase === 'available' && (
        <>
          <p className="small">
            Version {version} is available (you have {status.currentVersion}).
          </p>
          {status.offer?.releaseNotes && (
            <details className="small">
              <summary>What is new</summary>
              <p className="updates-notes">{status.offer.releaseNotes}</p>
            </details>
          )}
          <button
            className="button button--primary button--small"
            disabled={download.busy}
            data-testid="updates-download"
            onClick={() => void download.run()}
          >
            Download version {version}
          </button>
        </>
      )}
      {status.phase === 'downloading' && (
        <ProgressBar
          value={status.percent}
          label={`Downloading version ${version}`}
          testId="updates-progress"
        />
      )}
      {status.phase === 'downloaded' && (
        <>
          <p className="small">Version {version} is downloaded and verified.</p>
          <button
            className="button button--primary button--small"
            disabled={install.busy}
            data-testid="updates-install"
            onClick={() => void install.run()}
          >
            Restart and install
          </button>
        </>
      )}
      {status.phase === 'error' && (
        <>
          <ErrorMessage error={status.error} />
          {checkButton}
        </>
      )}
      <ErrorMessage error={check.error ?? download.error ?? install.error} />
    </div>
  );
}
