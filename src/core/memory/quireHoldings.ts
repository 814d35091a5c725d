/*
 * The holders of Quire's own memory, registered with the budget in one place: its processes (measured),
 * the document pool's threads (estimated) and LanceDB's caches (counted by LanceDB).
 */
import { liveChildProcesses } from '../common/entryPoints';
import { indexCacheLimits } from './capacity';
import { cacheHolding, poolHoldings, processHoldings } from './holdings';
import { machineTotalBytes } from './machineMemory';
import { MemoryBudgetService } from './memoryBudgetService';

// Fewer readers on a small machine or beside a large model: work waits rather than swaps.
export { workersAllowed } from './workAllowance';

/** LanceDB's cache caps for this machine (or the one QUIRE_MACHINE_MEMORY simulates). */
export function indexCacheLimitsHere(): { indexBytes: number; metadataBytes: number } {
  return indexCacheLimits(machineTotalBytes());
}

export interface QuireMemoryParts {
  /** The document pool, once open. */
  pool: () => { workersAlive(): { alive: number; ocr: number } } | undefined;
  /** The index, once open. */
  index: () => { cacheBytes(): number | null } | undefined;
}

/** Registers every holder; the function returned removes them. */
export function registerQuireHoldings(memory: MemoryBudgetService, parts: QuireMemoryParts): () => void {
  const removers = [
    memory.addHoldings(() => processHoldings(liveChildProcesses())),
    memory.addHoldings(() => {
      const pool = parts.pool();
      return pool ? poolHoldings(pool.workersAlive()) : [];
    }),
    memory.addHoldings(() => {
      const bytes = parts.index()?.cacheBytes() ?? null;
      return bytes === null ? [] : [cacheHolding(bytes)];
    }),
  ];
  return () => removers.forEach((remove) => remove());
}

/** Quire's budget with every holder registered, refreshed every few seconds until `stopWatching()`. */
export function watchedQuireMemory(
  parts: QuireMemoryParts,
): MemoryBudgetService & { stopWatching: () => void } {
  const memory = new MemoryBudgetService();
  registerQuireHoldings(memory, parts);
  return Object.assign(memory, { stopWatching: memory.watch() });
}
