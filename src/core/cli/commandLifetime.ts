import { killLiveChildren } from '../common/entryPoints';
import { watchParent } from '../common/parentWatch';

/**
 * How long a command waits for what it registered to close after a signal, or after its parent went
 * away, before it exits anyway: whoever sent the signal (a terminal, a test runner, a service manager)
 * expects it gone soon.
 */
const STOP_DEADLINE_MS = 1000;

const closers = new Set<() => Promise<void>>();

/**
 * Registers what must be closed (a server, a core) if the command is ended early; the returned
 * function unregisters it once the command closed it itself.
 */
export function closeBeforeExit(close: () => Promise<void>): () => void {
  closers.add(close);
  return () => closers.delete(close);
}

const SIGNAL_NUMBERS = { SIGHUP: 1, SIGINT: 2, SIGTERM: 15 } as const;

/**
 * Installed once per process: SIGTERM, SIGINT and SIGHUP, or the parent going away (a killed `npx`
 * wrapper), close what was registered and exit. `serving`: being stopped is how the command ends
 * (`quire serve`), so it exits 0; any other command was interrupted, and exits 128 + the signal.
 */
export function endWithParentOrSignal(options: { label: string; serving: boolean }): void {
  let stopping = false;
  const stop = async (why: string, code: number) => {
    // A second signal means now: whatever is still closing is cut short.
    if (stopping) exitNow(1);
    stopping = true;
    const orderly = Promise.allSettled([...closers].map((close) => close())).then((results) => {
      for (const result of results)
        if (result.status === 'rejected') console.error(`${options.label}: stopping failed`, result.reason);
    });
    const deadline = new Promise<void>((resolve) => setTimeout(resolve, STOP_DEADLINE_MS).unref());
    if (why) console.error(`${options.label}: ${why}`);
    await Promise.race([orderly, deadline]);
    exitNow(code);
  };
  for (const [signal, number] of Object.entries(SIGNAL_NUMBERS)) {
    process.on(signal, () => void stop('', options.serving ? 0 : 128 + number));
  }
  watchParent(() => void stop('the process that started it is gone; stopping.', options.serving ? 0 : 1));
}

function exitNow(code: number): never {
  killLiveChildren();
  process.exit(code);
}
