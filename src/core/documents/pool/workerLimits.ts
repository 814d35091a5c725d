/*
 * How many of the pool's workers may work now, and how many are alive: the memory budget's side of the
 * pool. Reading with OCR holds several times the memory of reading a text layer, so it has its own limit.
 */

/** Reading documents (parse, draw, count) or reading pages with OCR. */
export type PoolWork = 'read' | 'ocr';

/** Workers alive now: all of them, and those that read pages with OCR lately (they hold an engine). */
export interface PoolWorkers {
  alive: number;
  ocr: number;
}

// The worker lets its OCR engine go after this long without OCR (document.worker.ts).
const OCR_ENGINE_KEPT_MS = 60_000;

interface SlotView {
  worker: unknown;
  running: { job: { type: string } } | null;
  urgentOnly?: boolean;
  /** When the current worker last started OCR. */
  ocrAt?: number;
}

/**
 * The queued job `slot` may take now, or -1: the spare slot takes only urgent jobs; the others stay
 * within `limitOf` (at least one always runs, so work waits but never stops).
 */
export function nextJobFor(
  slot: SlotView,
  slots: readonly SlotView[],
  queue: ReadonlyArray<{ urgent: boolean; job: { type: string } }>,
  limitOf: (work: PoolWork) => number,
): number {
  if (slot.urgentOnly) return queue[0]?.urgent ? 0 : -1;
  const limit = (work: PoolWork) => Math.max(1, Math.floor(limitOf(work)));
  const busy = slots.filter((other) => !other.urgentOnly && other.running);
  if (busy.length >= limit('read')) return -1;
  const ocrAllowed = busy.filter((other) => other.running?.job.type === 'ocr').length < limit('ocr');
  return queue.findIndex((queued) => ocrAllowed || queued.job.type !== 'ocr');
}

export function workersAlive(slots: readonly SlotView[], now = Date.now()): PoolWorkers {
  const alive = slots.filter((slot) => slot.worker !== null);
  const ocr = alive.filter(
    (slot) => slot.running?.job.type === 'ocr' || now - (slot.ocrAt ?? -Infinity) < OCR_ENGINE_KEPT_MS,
  );
  return { alive: alive.length, ocr: ocr.length };
}

/** How long a worker may sit idle before it exits, unless the pool is told otherwise. */
export const IDLE_EXIT_MS = 60_000;

/** Starts the idle clock of a slot whose worker has nothing to do; taking a job stops it. */
export function idleExitLater(
  slot: { worker: unknown; running: unknown; idleTimer?: NodeJS.Timeout | null },
  idleExitMs: number,
  retire: () => void,
): void {
  if (slot.worker === null || slot.running || slot.idleTimer) return;
  slot.idleTimer = setTimeout(() => {
    slot.idleTimer = null;
    if (!slot.running) retire();
  }, idleExitMs);
  slot.idleTimer.unref();
}
