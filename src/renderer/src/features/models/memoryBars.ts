import type { MemoryBudget, MemoryEntry } from '../../../../shared/domain/models';

/** Percentages of the machine's total memory, so every bar shares one scale. */
export interface MemoryRow {
  entry: MemoryEntry;
  weightsPercent: number;
  kvCachePercent: number;
}

export interface MemoryOverview {
  rows: MemoryRow[];
  /** Bytes of the models whose size is known. */
  modelsBytes: number;
  /** Models a server holds without saying how much memory they take. */
  unknownCount: number;
  modelsPercent: number;
  headroomPercent: number;
  /** Where the headroom band starts, so bars can show the line models must stay behind. */
  limitPercent: number;
  overBudget: boolean;
}

function share(bytes: number, total: number): number {
  return total > 0 ? Math.min(100, Math.max(0, (bytes / total) * 100)) : 0;
}

export function describeMemory(budget: MemoryBudget): MemoryOverview {
  const total = budget.totalBytes;
  const rows = budget.entries.map((entry) => ({
    entry,
    weightsPercent: share(entry.weightsBytes, total),
    kvCachePercent: share(entry.kvCacheBytes, total),
  }));
  const known = budget.entries.filter((entry) => entry.sizeKnown !== false);
  const modelsBytes = known.reduce((sum, entry) => sum + entry.weightsBytes + entry.kvCacheBytes, 0);
  const headroomPercent = share(budget.appHeadroomBytes, total);
  return {
    rows,
    modelsBytes,
    unknownCount: budget.entries.length - known.length,
    modelsPercent: share(modelsBytes, total),
    headroomPercent,
    limitPercent: 100 - headroomPercent,
    overBudget: budget.freeForModelsBytes < 0,
  };
}
