/*
 * V8's side of giving memory back. After work V8 keeps its young generation at full size (up to 64 MB
 * a semi-space on Node 24) and its freed pages pooled for reuse, and dead objects that own native memory
 * (buffers, native modules' wrappers) keep it until a full collection finalizes them. A last-resort
 * collection, which V8 otherwise runs only when memory is short, does all three. On the budget bench
 * Quire's process went from 402 and 365 MB at idle to 301 and 284; V8's heap was only 6-7 MB of that:
 * the rest was anonymous memory outside it, which the allocator could return once it was freed.
 * An ordinary collection returns no pooled pages (a script that churned short-lived objects: 254 MB
 * resident after one, 61 MB after a last-resort one).
 */
import { runInNewContext } from 'node:vm';
import { setFlagsFromString } from 'node:v8';

type Collect = (options: { type: 'major'; execution: 'sync'; flavor: 'last-resort' }) => void;

let collect: Collect | null | undefined;

/**
 * V8's collector, reached without launching with --expose-gc: a context created while the flag is set
 * carries `gc`, so no launcher (Electron's main process takes no V8 flags from the app) has to pass it.
 * The flag is cleared again, so contexts and workers created later do not see `gc`.
 */
function loadCollect(): Collect | null {
  if (collect !== undefined) return collect;
  collect = null;
  try {
    setFlagsFromString('--expose-gc');
    const found: unknown = runInNewContext('gc');
    if (typeof found === 'function') collect = found as Collect;
  } catch {
    collect = null;
  } finally {
    setFlagsFromString('--no-expose-gc');
  }
  return collect;
}

/**
 * Collects everything collectable now and returns V8's spare pages to the system; true when it could.
 * It pauses this thread for the collection (tens of ms on an idle heap of about 50 MB): call it once
 * work is over, not while it runs.
 */
export function returnHeapToSystem(): boolean {
  const gc = loadCollect();
  if (!gc) return false;
  gc({ type: 'major', execution: 'sync', flavor: 'last-resort' });
  return true;
}
