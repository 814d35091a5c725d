import { useEffect, useState } from 'react';
import type { McpSharingStatus } from '../../../../shared/domain/mcpSharing';
import { ErrorMessage } from '../../components/ErrorMessage';
import { quire } from '../../ipc/client';
import { httpAddress, stdioSnippet } from './mcpSnippets';

/**
 * The switch that lets other apps on this computer use the library over MCP, and what to paste there:
 * a `quire mcp` entry for apps that start Quire themselves (it reads the app's library beside the app,
 * writing nothing and catching up with what the app indexes), and the address for apps that connect.
 */
export function McpSharingSection() {
  const [status, setStatus] = useState<McpSharingStatus | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    const off = quire.on('mcpSharing.onStatus', setStatus);
    void quire['mcpSharing.status']({}).then((result) =>
      result.ok ? setStatus(result.value) : setError(result.error.message),
    );
    return off;
  }, []);

  const setEnabled = async (enabled: boolean) => {
    setBusy(true);
    const result = await quire['mcpSharing.setEnabled']({ enabled });
    setBusy(false);
    if (!result.ok) return setError(result.error.message);
    setError(null);
    setStatus(result.value);
  };

  return (
    <fieldset className="panel-section fieldset" data-testid="mcp-sharing">
      <legend className="section-title">Other apps</legend>
      {status?.unsupportedReason ? (
        <p className="small muted">{status.unsupportedReason}</p>
      ) : (
        <>
          <p className="small muted">
            Off by default. When on, MCP clients on this computer (Claude Desktop, VS Code, Cursor and others)
            can search and read the library; nothing leaves this computer.
          </p>
          <label className="checkbox">
            <input
              type="checkbox"
              checked={status?.enabled ?? false}
              disabled={!status || busy}
              data-testid="mcp-sharing-enabled"
              onChange={(event) => void setEnabled(event.target.checked)}
            />
            Let other apps on this computer use the library
          </label>
        </>
      )}
      <ErrorMessage error={error ?? status?.error ?? null} />
      {status?.enabled && status.dataDir && (
        <>
          <Snippet
            label="For apps that start Quire themselves (claude_desktop_config.json)"
            text={stdioSnippet(status.dataDir)}
            testId="mcp-stdio"
          />
          {status.address && status.token && (
            <Snippet
              label="For apps that connect to an address (Streamable HTTP)"
              text={httpAddress(status.address, status.token)}
              testId="mcp-http"
            />
          )}
        </>
      )}
    </fieldset>
  );
}

function Snippet({ label, text, testId }: { label: string; text: string; testId: string }) {
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null);
  return (
    <div className="settings-field" data-testid={testId}>
      <span className="field-label">{label}</span>
      <pre className="settings-snippet">{text}</pre>
      <button
        type="button"
        className="button button--small"
        aria-label={`Copy: ${label}`}
        onClick={() =>
          // Where the page has no clipboard (not a secure context) the copy fails in words, not silently.
          Promise.resolve()
            .then(() => navigator.clipboard.writeText(text))
            .then(
              () => setCopied('yes'),
              () => setCopied('failed'),
            )
        }
      >
        {copied === 'yes' ? 'Copied' : copied === 'failed' ? 'Copy failed' : 'Copy'}
      </button>
    </div>
  );
}
