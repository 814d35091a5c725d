import { setPriority } from 'node:os';

/** The nice value of threads that read documents: below the window and the main thread, above idle work. */
export const BACKGROUND_NICE = 10;

/**
 * Lowers the calling thread's CPU priority, so that when the machine is busy the window and the main
 * thread run first and reading waits its turn; on an idle machine it changes nothing. Only on Linux,
 * where a thread's nice value is its own (threads it starts inherit it): elsewhere it would lower the
 * whole process. Returns whether the priority was lowered.
 */
export function yieldToForeground(): boolean {
  if (process.platform !== 'linux') return false;
  try {
    setPriority(BACKGROUND_NICE);
    return true;
  } catch {
    // A sandbox that forbids it leaves the thread as it was: slower to yield, never wrong.
    return false;
  }
}
