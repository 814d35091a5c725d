import type { MemoryBudget } from '../../../../shared/domain/models';
import { formatBytes } from '../../lib/format';
import { describeHolders } from './memoryHolders';

/** Who holds what now: Quire's processes (measured), and the threads and caches inside them. */
export function MemoryHoldersView({ budget }: { budget: MemoryBudget }) {
  const overview = describeHolders(budget);
  if (overview.rows.length === 0) return null;
  return (
    <div className="memory-holders" data-testid="memory-holders">
      <p className="small" data-testid="memory-held">
        Quire holds {formatBytes(overview.heldBytes)} across its processes now
      </p>
      <ul className="memory-rows">
        {overview.rows.map((row) => (
          <li
            key={row.holding.id}
            className={row.nested ? 'memory-row memory-row--nested' : 'memory-row'}
            data-testid="memory-holder"
            data-kind={row.holding.kind}
            data-how={row.holding.how}
          >
            <div className="memory-row__head">
              <span className="memory-row__label">{row.holding.label}</span>
              <span className="muted small">
                {formatBytes(row.holding.bytes)} · {row.source}
              </span>
            </div>
            <div
              className="memory-track"
              role="img"
              aria-label={`${row.holding.label}: ${formatBytes(row.holding.bytes)}, ${row.source}`}
            >
              <div
                className="memory-track__segment memory-track__segment--weights"
                style={{ width: `${row.percent}%` }}
              />
            </div>
          </li>
        ))}
      </ul>
    </div>
  );
}
