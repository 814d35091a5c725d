/*
 * Indexing runs below the window's CPU priority. On a machine with two cores, reading and committing
 * a few hundred changed files takes both, and the window's renderer, runnable with 12 ms of drawing
 * to do, waited up to 175 ms behind the engine's threads for its turn (a frame of 187 ms). With the
 * engine's threads below normal, the same window drew no frame over 50 ms.
 *
 * Linux keeps a priority per thread: lowering one thread leaves the rest of the process as it was,
 * and a thread takes the priority of the thread that starts it. macOS and Windows keep one priority
 * per process: lowering a worker there would lower the desktop app's main process with it.
 */
import { readdirSync } from 'node:fs';
import { constants, getPriority, platform, setPriority } from 'node:os';

export const BELOW_NORMAL = constants.priority.PRIORITY_BELOW_NORMAL;

/** Whether this system keeps a priority per thread. */
export const prioritiesPerThread = platform() === 'linux';

function lower(id: number): string | null {
  try {
    // Never raise it: a process started lower (by `nice`, a service manager) stays as low.
    if (getPriority(id) < BELOW_NORMAL) setPriority(id, BELOW_NORMAL);
    return null;
  } catch (error) {
    // A thread that ended between listing and lowering is not a failure.
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return null;
    return error instanceof Error ? error.message : String(error);
  }
}

/**
 * Lowers the calling thread where threads have priorities of their own (Linux), for a worker thread
 * that indexes. Elsewhere this would lower the whole process, the desktop app's main process among
 * them, so nothing is done and false comes back.
 */
export function lowerThisThread(): boolean {
  if (!prioritiesPerThread) return false;
  return lower(0) === null;
}

/**
 * Lowers the whole process, for a process that is all engine (`quire serve`): on Linux every thread
 * running now (V8's helpers among them); elsewhere the process. Threads started afterwards (the
 * index's runtime, the document workers) take the lowered priority from the thread that starts them.
 * The event loop that answers the window is lowered too. Against keeping it at normal, frames while
 * 300 files changed were shorter (33 ms, not 50) and first rows on a kept library came as soon; right
 * after indexing 10,000 files, though, the first rows came later than before (345 ms, not 278).
 */
export function lowerThisProcess(): { priority: number; failed: string | null } {
  let failed = lower(0);
  if (prioritiesPerThread) {
    let threads: string[] = [];
    try {
      threads = readdirSync('/proc/self/task');
    } catch (error) {
      failed ??= error instanceof Error ? error.message : String(error);
    }
    for (const thread of threads) failed ??= lower(Number(thread));
  }
  return { priority: getPriority(0), failed };
}
