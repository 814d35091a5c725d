/*
 * The last line of defence for long-running processes (`quire serve`, the Electron main process): a
 * promise nobody awaited or an exception thrown from a callback is logged with what it was, and the
 * process keeps serving. Every known failure path handles its own errors; this catches the rest.
 */

export interface ProcessGuardOptions {
  /** Names the process in the log, e.g. `quire serve`. */
  label: string;
  log?: (message: string) => void;
}

export function guardProcess(options: ProcessGuardOptions): () => void {
  const log = options.log ?? ((message: string) => console.error(message));
  const report = (what: string, reason: unknown) => {
    log(`${options.label}: ${what} (still running): ${describe(reason)}`);
  };
  const onRejection = (reason: unknown) => report('a promise was rejected and nobody handled it', reason);
  const onException = (error: unknown, origin: string) =>
    report(origin === 'unhandledRejection' ? 'an unhandled rejection' : 'an uncaught exception', error);
  process.on('unhandledRejection', onRejection);
  process.on('uncaughtException', onException);
  return () => {
    process.off('unhandledRejection', onRejection);
    process.off('uncaughtException', onException);
  };
}

function describe(reason: unknown): string {
  if (reason instanceof Error) return reason.stack ?? `${reason.name}: ${reason.message}`;
  try {
    return JSON.stringify(reason) ?? String(reason);
  } catch {
    return String(reason);
  }
}
