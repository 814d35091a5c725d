/*
 * How many document reader threads the memory budget allows now. Work shares the machine with the
 * models: on a small machine, or with a large model loaded, fewer readers run and the rest of the work
 * waits its turn, rather than pushing the machine into swap. One reader always runs.
 */
import type { MemoryBudget } from '../../shared/domain/models';
import { OCR_ENGINE_BYTES, READER_WORKER_BYTES } from './holdings';

/** Kept free beyond the workers: the system, Quire's own process growing, a page being drawn. */
export const WORK_RESERVE_BYTES = 512e6;

export type WorkKind = 'read' | 'ocr';

export function workersAllowed(budget: MemoryBudget, work: WorkKind, wanted: number): number {
  const each = work === 'ocr' ? READER_WORKER_BYTES + OCR_ENGINE_BYTES : READER_WORKER_BYTES;
  return Math.max(1, Math.min(Math.floor(wanted), Math.floor(workRoomBytes(budget) / each)));
}

/**
 * Bytes the workers may hold: what is available now plus what they already hold (it is missing from
 * the available figure), less models planned but not loaded yet and the reserve; never more than the
 * machine's size less its headroom and the models' share.
 */
export function workRoomBytes(budget: MemoryBudget): number {
  const workers = (budget.holders ?? [])
    .filter((holding) => holding.kind === 'workers' || holding.kind === 'ocr')
    .reduce((total, holding) => total + holding.bytes, 0);
  const models = (loaded: boolean) =>
    budget.entries
      .filter((entry) => entry.loaded === loaded && !entry.external)
      .reduce((total, entry) => total + entry.weightsBytes + entry.kvCacheBytes, 0);
  const fromAvailable = budget.availableBytes + workers - models(false) - WORK_RESERVE_BYTES;
  const fromTotal = budget.totalBytes - budget.appHeadroomBytes - models(true) - models(false);
  return Math.max(0, Math.min(fromAvailable, fromTotal));
}
