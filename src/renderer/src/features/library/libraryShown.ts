import { useSyncExternalStore } from 'react';
import { afterNextPaint } from '../../lib/afterPaint';

/**
 * The library's first rows come first when the window opens: the chat, the side panel and their
 * calls start once those rows are painted (or the first listing failed), so what a person opened
 * the window for is not held up by everything else starting beside it.
 */

/** Longest the rest of the window waits for the library (an engine slow to answer, a lost connection). */
const LONGEST_WAIT_MS = 1500;

let shown = false;
const listeners = new Set<() => void>();
let reveal: () => void = () => undefined;

/** Resolves once the library's first rows are painted, or after LONGEST_WAIT_MS. */
export const libraryShown: Promise<void> = new Promise((resolve) => {
  reveal = () => {
    if (shown) return;
    shown = true;
    clearTimeout(timer);
    resolve();
    for (const listener of listeners) listener();
  };
  const timer = setTimeout(() => reveal(), LONGEST_WAIT_MS);
});

/** Called once the first listing has been taken (or refused): the rest starts after the next paint. */
export function noteFirstListing(): void {
  if (!shown) void afterNextPaint().then(reveal);
}

/** Whether the rest of the window may draw: false only while the library's first rows are on their way. */
export function useLibraryShown(): boolean {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => shown,
  );
}

/** Runs `start` once the library is shown; the returned function stops it, or stops it from starting. */
export function startAfterLibraryShown(start: () => () => void): () => void {
  let stop: (() => void) | null = null;
  let cancelled = false;
  void libraryShown.then(() => {
    if (!cancelled) stop = start();
  });
  return () => {
    cancelled = true;
    stop?.();
  };
}
