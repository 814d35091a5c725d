import { useState } from 'react';
import type {
  DownloadProgress,
  RoleProposal,
  SetupProposal,
  SetupRole,
} from '../../../../shared/domain/models';
import { ErrorMessage } from '../../components/ErrorMessage';
import { ProgressBar } from '../../components/ProgressBar';
import { formatBytes, percent } from '../../lib/format';
import { useAction } from '../../lib/useAction';
import { useModelsStore } from './modelsStore';
import { ROLE_LABELS } from './RoleList';

function how(role: RoleProposal): string {
  switch (role.source) {
    case 'download':
      return `Download ${formatBytes(role.downloadBytes)}`;
    case 'ollama':
      return `Through Ollama: ${role.ollamaModel ?? role.modelId}`;
    case 'present':
      return 'Already here';
    case 'server':
      return 'Already served';
  }
}

/** Roles served by the same model share one row (deciding and answering, usually). */
function groupByModel(
  roles: readonly RoleProposal[],
): Array<{ proposal: RoleProposal; roles: RoleProposal['role'][] }> {
  const groups = new Map<string, { proposal: RoleProposal; roles: RoleProposal['role'][] }>();
  for (const role of roles) {
    const key = `${role.source}|${role.server ?? ''}|${role.modelId}`;
    const group = groups.get(key);
    if (group) group.roles.push(role.role);
    else groups.set(key, { proposal: role, roles: [role.role] });
  }
  return [...groups.values()];
}

/** What the rows still included download, each model once. */
function includedDownloadBytes(proposal: SetupProposal, leftOut: ReadonlySet<SetupRole>): number {
  return groupByModel(proposal.roles)
    .filter(({ roles }) => !roles.some((role) => leftOut.has(role)))
    .reduce((sum, { proposal: role }) => sum + role.downloadBytes, 0);
}

/** The one sentence that tells a newcomer what to do now. */
function firstStep(nothingToFetch: boolean, started: boolean): string {
  if (started)
    return 'While the models arrive, add a folder of documents to the library; then ask a question below.';
  const press = nothingToFetch ? 'Use these models' : 'Download and set up';
  return `To begin, untick any model you do not want and press “${press}”, then add a folder of documents to the library and ask it a question.`;
}

function machineLine(proposal: SetupProposal): string {
  const machine = proposal.machine;
  const memory = `${formatBytes(machine.totalMemoryBytes)} ${machine.unifiedMemory ? 'unified memory with Metal' : 'of RAM'}`;
  const disk = machine.freeDiskBytes === null ? '' : `, ${formatBytes(machine.freeDiskBytes)} free on disk`;
  return `For this machine (${memory}${disk}):`;
}

function SetupProgress({ downloads }: { downloads: readonly DownloadProgress[] }) {
  return (
    <ul className="setup-progress" aria-label="Setup downloads">
      {downloads.map((download) => (
        <li key={download.id} data-testid="setup-download" data-state={download.state}>
          <div className="download-item__head">
            <span className="download-item__model">{download.model}</span>
            <span className="muted small">{download.state === 'done' ? 'Done' : download.state}</span>
          </div>
          {download.state !== 'done' && (
            <ProgressBar
              value={download.bytesTotal ? percent(download.bytesDone, download.bytesTotal) : null}
              label={`Download of ${download.model}`}
              testId="setup-download-progress"
              tone={download.state === 'failed' ? 'muted' : 'accent'}
            />
          )}
          {download.error && <p className="document-item__error">{download.error}</p>}
        </li>
      ))}
    </ul>
  );
}

/**
 * The first-run setup: the model set proposed for this machine, per role the model, what it takes to
 * get it, the memory it uses and why; the totals; and one button that fetches it all. A row can be
 * left out (the vision model or the reranker on a small disk, say); the rest is set up without it.
 */
export function SetupCard({ onDismiss }: { onDismiss?: () => void }) {
  const proposal = useModelsStore((state) => state.proposal);
  const proposalError = useModelsStore((state) => state.proposalError);
  const setupIds = useModelsStore((state) => state.setupDownloadIds);
  const downloads = useModelsStore((state) => state.downloads);
  const start = useAction(useModelsStore((state) => state.startSetup));
  const dismiss = useAction(useModelsStore((state) => state.dismissSetup));
  const [leftOut, setLeftOut] = useState<ReadonlySet<SetupRole>>(new Set());

  if (!proposal) {
    return (
      <section className="setup-card" data-testid="setup-card" aria-busy={!proposalError}>
        <h3 className="section-title">Set up models</h3>
        {proposalError ? (
          <ErrorMessage error={proposalError} />
        ) : (
          <p className="muted small">Looking at this machine…</p>
        )}
      </section>
    );
  }
  const running = downloads.filter((download) => setupIds.includes(download.id));
  const started = running.length > 0;
  const nothingToFetch = proposal.roles.every(
    (role) => role.source === 'present' || role.source === 'server',
  );
  const totals = proposal.totals;
  const included = proposal.roles.map((role) => role.role).filter((role) => !leftOut.has(role));
  const toggle = (roles: readonly SetupRole[], include: boolean) =>
    setLeftOut((current) => {
      const next = new Set(current);
      for (const role of roles) {
        if (include) next.delete(role);
        else next.add(role);
      }
      return next;
    });

  return (
    <section className="setup-card" data-testid="setup-card" aria-labelledby="setup-card-title">
      <h3 id="setup-card-title" className="section-title">
        Set up models
      </h3>
      <p className="setup-card__next" data-testid="first-step">
        {firstStep(nothingToFetch, started)}
      </p>
      <p className="small">{machineLine(proposal)}</p>
      <ul className="setup-roles">
        {groupByModel(proposal.roles).map(({ proposal: role, roles }) => (
          <li
            key={roles.join(' ')}
            className="setup-role"
            data-testid="setup-role"
            data-roles={roles.join(' ')}
            data-source={role.source}
          >
            <div className="setup-role__head">
              <label className="checkbox setup-role__name">
                <input
                  type="checkbox"
                  data-testid="setup-role-include"
                  checked={!roles.some((name) => leftOut.has(name))}
                  disabled={started}
                  onChange={(event) => toggle(roles, event.target.checked)}
                />
                {roles.map((name) => ROLE_LABELS[name]).join(' · ')}
              </label>
              <span className="setup-role__model">{role.label}</span>
            </div>
            <p className="small">
              {how(role)}
              {role.memoryBytes !== null && ` · ${formatBytes(role.memoryBytes)} in memory`}
              {!role.runtimeReady && ' · not usable in this build yet'}
            </p>
            {/* The size and the memory decide; why this model, its licence and its scores are there on request. */}
            <details className="setup-role__why muted small">
              <summary>Why this model</summary>
              <p>
                {role.reason.charAt(0).toUpperCase() + role.reason.slice(1)}. {role.licence}; {role.quality}.
              </p>
            </details>
          </li>
        ))}
      </ul>
      <p className="setup-card__total small" data-testid="setup-total">
        {leftOut.size > 0
          ? `Total of what is ticked: ${formatBytes(includedDownloadBytes(proposal, leftOut))} to download`
          : `Total: ${formatBytes(totals.downloadBytes)} to download · ${formatBytes(totals.memoryBytes)} in memory while answering (${formatBytes(totals.peakMemoryBytes)} while reading page images)`}
      </p>
      {proposal.notes.map((note) => (
        <p key={note} className="muted small">
          {note}
        </p>
      ))}
      {started && <SetupProgress downloads={running} />}
      <ErrorMessage error={start.error ?? dismiss.error} />
      <div className="button-row">
        <button
          type="button"
          className="button button--primary"
          data-testid="setup-start"
          disabled={
            included.length === 0 ||
            start.busy ||
            (started && running.some((download) => download.state === 'downloading'))
          }
          onClick={() => void start.run(leftOut.size > 0 ? included : undefined)}
        >
          {nothingToFetch ? 'Use these models' : started ? 'Try again' : 'Download and set up'}
        </button>
        {!started && (
          <button
            type="button"
            className="button button--quiet"
            data-testid="setup-dismiss"
            disabled={dismiss.busy}
            onClick={() => void dismiss.run().then((ok) => ok && onDismiss?.())}
          >
            Not now
          </button>
        )}
      </div>
    </section>
  );
}
