import type { MemoryBudget } from '../../../../shared/domain/models';
import { formatBytes } from '../../lib/format';
import { describeMemory } from './memoryBars';
import { MemoryHoldersView } from './MemoryHoldersView';
import { ROLE_LABELS } from './RoleList';

/**
 * Each model's weights and working memory (a chat model's KV cache and compute buffers, an embedder's
 * activations) against the machine's memory, with the headroom kept for the system.
 */
export function MemoryBudgetView({ budget }: { budget: MemoryBudget }) {
  const overview = describeMemory(budget);
  const freeText =
    budget.freeForModelsBytes < 0
      ? `${formatBytes(-budget.freeForModelsBytes)} over budget`
      : `${formatBytes(budget.freeForModelsBytes)} free for models`;

  return (
    <div className="memory" data-testid="memory-budget">
      <p className="memory__totals small" data-testid="memory-totals">
        {overview.modelsBytes === 0 && overview.unknownCount > 0
          ? 'An unknown amount'
          : formatBytes(overview.modelsBytes)}
        {overview.modelsBytes > 0 &&
          overview.unknownCount > 0 &&
          ` + ${overview.unknownCount} of unknown size`}{' '}
        for models of {formatBytes(budget.totalBytes)}
        {budget.unifiedMemory ? ' unified memory' : ' RAM'} · {formatBytes(budget.availableBytes)} available
        now
      </p>
      <div
        className="memory-track memory-track--summary"
        data-testid="memory-summary"
        role="img"
        aria-label={`Models use ${formatBytes(overview.modelsBytes)} of ${formatBytes(budget.totalBytes)}; ${freeText}`}
      >
        {overview.rows.map((row) => (
          <div
            key={row.entry.id}
            className={`memory-track__segment memory-track__segment--weights${row.entry.loaded ? '' : ' memory-track__segment--planned'}`}
            style={{ width: `${row.weightsPercent + row.kvCachePercent}%` }}
            title={row.entry.label}
          />
        ))}
        <div className="memory-track__headroom" style={{ width: `${overview.headroomPercent}%` }} />
      </div>
      <p className={`small ${overview.overBudget ? 'memory__over' : 'muted'}`} data-testid="memory-free">
        {freeText} · {formatBytes(budget.appHeadroomBytes)} kept as headroom
      </p>
      <ul className="memory-rows">
        {overview.rows.map((row) => (
          <li
            key={row.entry.id}
            className="memory-row"
            data-testid="memory-row"
            data-loaded={row.entry.loaded}
          >
            <div className="memory-row__head">
              <span className="memory-row__label">{row.entry.label}</span>
              <span className="muted small">
                {row.entry.loaded ? 'Loaded' : 'Planned'}
                {row.entry.external ? ' · in a server' : ''}
              </span>
            </div>
            <div
              className="memory-track"
              data-testid="memory-bar"
              role="img"
              aria-label={`${row.entry.label}: weights ${formatBytes(row.entry.weightsBytes)}, working memory ${formatBytes(row.entry.kvCacheBytes)}`}
            >
              <div
                className={`memory-track__segment memory-track__segment--weights${row.entry.loaded ? '' : ' memory-track__segment--planned'}`}
                style={{ width: `${row.weightsPercent}%` }}
              />
              <div
                className="memory-track__segment memory-track__segment--kv"
                style={{ width: `${row.kvCachePercent}%` }}
              />
              <div className="memory-track__headroom" style={{ width: `${overview.headroomPercent}%` }} />
            </div>
            <p className="muted small">
              {row.entry.sizeKnown === false
                ? 'Size unknown: the server does not say'
                : `Weights ${formatBytes(row.entry.weightsBytes)} · working memory ${formatBytes(row.entry.kvCacheBytes)}`}
              {row.entry.gpuBytes !== undefined && ` · ${formatBytes(row.entry.gpuBytes)} in GPU memory`}
              {row.entry.roles.length > 0 &&
                ` · ${row.entry.roles.map((role) => ROLE_LABELS[role]).join(', ')}`}
            </p>
          </li>
        ))}
      </ul>
      <div className="memory-legend small muted" aria-hidden="true">
        <span className="legend-swatch legend-swatch--weights" /> Weights
        <span className="legend-swatch legend-swatch--kv" /> Working memory
        <span className="legend-swatch legend-swatch--headroom" /> Headroom
      </div>
      <MemoryHoldersView budget={budget} />
      {budget.notes.length > 0 && (
        <ul className="memory-notes small">
          {budget.notes.map((note, index) => (
            <li key={index}>{note}</li>
          ))}
        </ul>
      )}
    </div>
  );
}
