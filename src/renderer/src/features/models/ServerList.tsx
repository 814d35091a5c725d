import type { DetectedServer } from '../../../../shared/domain/models';
import { plural } from '../../lib/format';
import { providerLabel } from './RoleList';

const sameAddress = (a: string, b: string) => a.replace(/\/+$/, '') === b.replace(/\/+$/, '');

/**
 * Servers that answer, and the ones the user added (which say why they do not answer). The usual
 * local ports that nobody listens on are one quiet line: running no server is a normal setup.
 */
export function ServerList({
  servers,
  added,
}: {
  servers: readonly DetectedServer[];
  added: readonly string[];
}) {
  const shown = servers.filter(
    (server) => server.reachable || added.some((address) => sameAddress(address, server.endpoint)),
  );
  const anyRunning = servers.some((server) => server.reachable);
  return (
    <>
      {!anyRunning && (
        <p className="muted small" data-testid="no-servers">
          No Ollama or LM Studio running: optional.
        </p>
      )}
      {shown.length > 0 && (
        <ul className="server-list">
          {shown.map((server) => (
            <li key={`${server.kind}:${server.endpoint}`} className="server-item" data-testid="server-item">
              <div className="server-item__head">
                <span>{providerLabel(server.kind)}</span>
                <span className={`badge ${server.reachable ? 'badge--indexed' : 'badge--failed'}`}>
                  {server.reachable ? 'Reachable' : 'Unreachable'}
                </span>
              </div>
              <p className="muted small">
                {server.endpoint}
                {server.reachable && ` · ${plural(server.models.length, 'model')}`}
              </p>
              {!server.reachable && server.error && <p className="document-item__error">{server.error}</p>}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
