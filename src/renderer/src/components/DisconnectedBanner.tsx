import { useEffect, useState } from 'react';
import { useConnectionStore } from '../ipc/connectionStore';

/** Shown while browser mode has lost its server; Electron never disconnects. */
export function DisconnectedBanner() {
  const phase = useConnectionStore((state) => state.phase);
  const retryAt = useConnectionStore((state) => state.retryAt);
  const hasToken = useConnectionStore((state) => state.hasToken);
  const everConnected = useConnectionStore((state) => state.everConnected);
  const retryNow = useConnectionStore((state) => state.retryNow);
  const seconds = useSecondsUntil(retryAt);

  if (phase === 'connected' || (phase === 'connecting' && !everConnected)) return null;
  return (
    <div className="banner banner--warning" role="alert" data-testid="disconnected-banner">
      <span>
        <strong>Disconnected from Quire.</strong>{' '}
        {phase === 'connecting'
          ? 'Reconnecting…'
          : seconds !== null
            ? `Trying again in ${seconds} s.`
            : 'Trying again shortly.'}{' '}
        {!hasToken
          ? 'This page was opened without its access token: open the link that "quire serve" printed.'
          : // The token outlives a restart; a new port or data folder does not.
            phase === 'reconnecting' && 'If Quire was started again at another address, open that one.'}
      </span>
      {phase === 'reconnecting' && (
        <button type="button" className="button button--small" onClick={retryNow}>
          Retry now
        </button>
      )}
    </div>
  );
}

function useSecondsUntil(epochMs: number | null): number | null {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (epochMs === null) return;
    const timer = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(timer);
  }, [epochMs]);
  return epochMs === null ? null : Math.max(0, Math.ceil((epochMs - now) / 1000));
}
