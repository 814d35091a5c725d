import type { MemoryBudget, MemoryHolding } from '../../../../shared/domain/models';

/** One line of "who holds what": a process, or a part inside one (threads, caches). */
export interface HolderRow {
  holding: MemoryHolding;
  /** Inside another holder's figure (shown indented under it). */
  nested: boolean;
  /** Share of the machine's memory, for the bar. */
  percent: number;
  /** How the figure was obtained, in words. */
  source: string;
}

export interface HoldersOverview {
  rows: HolderRow[];
  /** Resident memory summed over Quire's processes. */
  heldBytes: number;
}

const SOURCE: Record<MemoryHolding['how'], string> = {
  measured: 'measured',
  estimated: 'estimated',
};

/** Processes largest first, each followed by the parts counted inside it. */
export function describeHolders(budget: MemoryBudget): HoldersOverview {
  const holdings = budget.holders ?? [];
  const row = (holding: MemoryHolding, nested: boolean): HolderRow => ({
    holding,
    nested,
    percent:
      budget.totalBytes > 0 ? Math.min(100, Math.max(0, (holding.bytes / budget.totalBytes) * 100)) : 0,
    source: nested ? `${SOURCE[holding.how]}, included above` : SOURCE[holding.how],
  });
  const tops = holdings.filter((holding) => !holding.partOf).sort((a, b) => b.bytes - a.bytes);
  const rows = tops.flatMap((top) => [
    row(top, false),
    ...holdings.filter((holding) => holding.partOf === top.id).map((part) => row(part, true)),
  ]);
  // A part whose holder is not listed still shows, on its own.
  const orphans = holdings.filter(
    (holding) => holding.partOf && !tops.some((top) => top.id === holding.partOf),
  );
  return {
    rows: [...rows, ...orphans.map((holding) => row(holding, false))],
    heldBytes: budget.heldBytes ?? tops.reduce((total, holding) => total + holding.bytes, 0),
  };
}
