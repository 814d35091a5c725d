import { useState } from 'react';
import { quire } from '../../ipc/client';

interface WebProposalsProps {
  proposals: Array<{ url: string; title: string }>;
}

type State = 'idle' | 'adding' | 'added' | { error: string };

/** PDFs a web search found: each is downloaded into the library only when the user says so. */
export function WebProposals({ proposals }: WebProposalsProps) {
  const [states, setStates] = useState<Record<string, State>>({});
  const add = async (url: string) => {
    setStates((s) => ({ ...s, [url]: 'adding' }));
    const result = await quire['library.addFromWeb']({ url });
    setStates((s) => ({ ...s, [url]: result.ok ? 'added' : { error: result.error.message } }));
  };
  return (
    <div className="proposals" data-testid="web-proposals">
      <p className="small muted">Found on the web (nothing is downloaded unless you add it):</p>
      <ul>
        {proposals.map(({ url, title }) => {
          const state = states[url] ?? 'idle';
          return (
            <li key={url}>
              <a href={url} target="_blank" rel="noreferrer noopener">
                {title}
              </a>{' '}
              {state === 'added' ? (
                <span className="small">Added to the library</span>
              ) : (
                <button
                  type="button"
                  className="button button--link"
                  disabled={state === 'adding'}
                  onClick={() => void add(url)}
                >
                  {state === 'adding' ? 'Downloading…' : 'Add to library'}
                </button>
              )}
              {typeof state === 'object' && <span className="small error">{state.error}</span>}
            </li>
          );
        })}
      </ul>
    </div>
  );
}
