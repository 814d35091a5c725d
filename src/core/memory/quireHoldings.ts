/*
 * The holders of Quire's own memory, registered with the budget in one place: its processes (measured),
 * the document pool's threads (estimated) and LanceDB's caches (counted by LanceDB).
 */
import { tuneAllocator } from '../common/allocator';
import { liveChildProcesses } from '../common/entryPoints';
import { indexCacheLimits } from './capacity';
import { cacheHolding, poolHoldings, processHoldings } from './holdings';
import { releaseMemoryWhenIdle } from './idleRelease';
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

/** The pool as the budget and the idle release see it. */
interface IdlePool {
  workersAlive(): { alive: number; ocr: number };
  pending(): number;
}

/**
 * Quire's budget with every holder registered, refreshed every few seconds until `stopWatching()`. Until
 * then too, memory freed by finished work goes back to the system once the pool is idle (idleRelease.ts).
 */
export function watchedQuireMemory(
  parts: Omit<QuireMemoryParts, 'pool'> & { pool: () => IdlePool | undefined },
): MemoryBudgetService & { stopWatching: () => void } {
  tuneAllocator();
  const memory = new MemoryBudgetService();
  registerQuireHoldings(memory, parts);
  const stopRefreshing = memory.watch();
  const idle = releaseMemoryWhenIdle({
    busy: () => {
      const pool = parts.pool();
      return pool !== undefined && (pool.pending() > 0 || pool.workersAlive().alive > 0);
    },
  });
  const stopWatching = () => {
    stopRefreshing();
    idle.dispose();
  };
  return Object.assign(memory, { stopWatching });
}
