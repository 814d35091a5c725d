import { useState } from 'react';
import { ErrorMessage } from '../../components/ErrorMessage';
import { useAction } from '../../lib/useAction';
import { AddedServers } from './AddedServers';
import { DownloadList } from './DownloadList';
import { MemoryBudgetView } from './MemoryBudgetView';
import { useModelsStore } from './modelsStore';
import { RoleList } from './RoleList';
import { ServerList } from './ServerList';
import { SetupCard } from './SetupCard';

// A stable empty list: a selector that returned a fresh [] would re-render forever.
const NO_SERVERS: string[] = [];
import './models.css';

export function ModelsPanel() {
  const status = useModelsStore((state) => state.status);
  const budget = useModelsStore((state) => state.budget);
  const downloads = useModelsStore((state) => state.downloads);
  const loadError = useModelsStore((state) => state.loadError);
  const budgetError = useModelsStore((state) => state.budgetError);
  const refresh = useAction(useModelsStore((state) => state.refresh));
  const added = useModelsStore((state) => state.settings?.servers ?? NO_SERVERS);
  const loadProposal = useModelsStore((state) => state.loadProposal);
  const [setupOpen, setSetupOpen] = useState(false);
  const openSetup = () => {
    void loadProposal();
    setSetupOpen(true);
  };

  return (
    <div className="models-panel" data-testid="models-panel">
      <section className="panel-section" aria-labelledby="models-roles-title">
        <div className="panel-section__head">
          <h3 id="models-roles-title" className="section-title">
            Models
          </h3>
          <div className="button-row">
            <button
              type="button"
              className="button button--small"
              aria-expanded={setupOpen}
              data-testid="open-setup"
              onClick={() => {
                if (!setupOpen) void loadProposal();
                setSetupOpen(!setupOpen);
              }}
            >
              Set up models
            </button>
            <button
              type="button"
              className="button button--small"
              disabled={refresh.busy}
              data-testid="models-refresh"
              onClick={() => void refresh.run()}
            >
              {refresh.busy ? 'Looking…' : 'Look again'}
            </button>
          </div>
        </div>
        {setupOpen && <SetupCard onDismiss={() => setSetupOpen(false)} />}
        <ErrorMessage error={refresh.error ?? loadError} />
        {status ? (
          <RoleList roles={status.roles} onGetModel={openSetup} />
        ) : (
          !loadError && <p className="muted small">Checking models…</p>
        )}
        {status && status.unusableFiles.length > 0 && (
          <ul className="role-list" data-testid="unusable-model-files">
            {status.unusableFiles.map((file) => (
              <li key={file.path} className="role-row role-row--missing">
                <p className="role-row__model">{file.path}</p>
                <p className="role-row__reason muted small">Unusable: {file.reason}</p>
              </li>
            ))}
          </ul>
        )}
      </section>
      <section className="panel-section" aria-labelledby="models-memory-title">
        <h3 id="models-memory-title" className="section-title">
          Memory
        </h3>
        {budget ? (
          <MemoryBudgetView budget={budget} />
        ) : budgetError ? (
          <ErrorMessage error={budgetError} />
        ) : (
          <p className="muted small">Measuring memory…</p>
        )}
      </section>
      {status && (
        <section className="panel-section" aria-labelledby="models-servers-title">
          <h3 id="models-servers-title" className="section-title">
            Model servers
          </h3>
          <ServerList servers={status.servers} added={added} />
          <AddedServers />
        </section>
      )}
      <section className="panel-section" aria-labelledby="models-downloads-title">
        <h3 id="models-downloads-title" className="section-title">
          Downloads
        </h3>
        <DownloadList downloads={downloads} />
      </section>
    </div>
  );
}
