import {
  calls,
  isCallName,
  type CallArgs,
  type CallName,
  type CallOutput,
  type CallResult,
} from '../../shared/ipc/contract';
import { QuireError, toErrorInfo } from '../../shared/errors';

/** A handler gets the call's signal: aborted when the caller no longer wants the answer. */
export type CallHandlers = {
  [K in CallName]: (args: CallArgs<K>, signal: AbortSignal) => Promise<CallOutput<K>>;
};

export interface DispatchOptions {
  /** Handlers that take a signal stop their work; a read is answered `cancelled` at once. */
  signal?: AbortSignal;
}

export type Dispatch = (
  name: unknown,
  input: unknown,
  options?: DispatchOptions,
) => Promise<CallResult<unknown>>;

const cancelled = (): CallResult<never> => ({
  ok: false,
  error: { code: 'cancelled', message: 'Cancelled.' },
});
/**
 * Reads whose late answer no one wants: cancelled, they are answered at once, whether or not their
 * handler stops. Any other call is passed the signal but answered with what it really did, so a
 * change that went through is never reported as cancelled.
 */
const ANSWERED_AT_CANCEL: ReadonlySet<CallName> = new Set<CallName>([
  'search.query',
  'search.documents',
  'search.retrieve',
  'pages.get',
  'pages.text',
  'pages.words',
]);

/** Handed to a handler whose caller cannot cancel, so every handler may count on a signal. */
const NEVER_ABORTED = new AbortController().signal;

/**
 * The one door into core for every transport (Electron IPC, the WebSocket server, tests): checks the
 * call exists, validates its input against the contract, runs the handler and validates what it
 * returns, and turns every failure into `{ ok: false, error }`. Nothing thrown escapes. A read whose
 * signal aborts is answered `cancelled` without waiting for a handler that does not check the signal.
 */
export function createDispatcher(handlers: CallHandlers): Dispatch {
  return async (name, input, options = {}) => {
    if (!isCallName(name)) {
      return {
        ok: false,
        error: { code: 'unknown_call', message: `There is no call named ${nameForMessage(name)}.` },
      };
    }
    const schema = calls[name];
    let parsed: ReturnType<typeof schema.input.safeParse>;
    try {
      parsed = schema.input.safeParse(input ?? {});
    } catch {
      return { ok: false, error: { code: 'invalid_input', message: `Invalid input for ${name}.` } };
    }
    if (!parsed.success) {
      const problems = parsed.error.issues.map(
        (issue) => `${issue.path.join('.') || 'input'}: ${issue.message}`,
      );
      return {
        ok: false,
        error: {
          code: 'invalid_input',
          message: `Invalid input for ${name}: ${problems.join('; ')}`,
          details: problems,
        },
      };
    }
    const signal = options.signal ?? NEVER_ABORTED;
    if (signal.aborted) return cancelled();
    try {
      const handler = handlers[name] as (args: unknown, signal: AbortSignal) => Promise<unknown>;
      const work = handler(parsed.data, signal);
      const value = ANSWERED_AT_CANCEL.has(name) ? await untilAborted(work, signal) : await work;
      if (value === ABORTED) return cancelled();
      const checked = schema.output.safeParse(value);
      if (!checked.success) {
        throw new QuireError(
          'internal',
          `${name} produced a malformed result: ${checked.error.issues[0]?.message}`,
        );
      }
      return { ok: true, value: checked.data };
    } catch (error) {
      const info = toErrorInfo(error);
      if (info.code === 'internal') console.error(`quire: ${name} failed`, error);
      return { ok: false, error: info };
    }
  };
}

const ABORTED = Symbol('aborted');

/** The handler's answer, or ABORTED as soon as the signal aborts; a late failure is then dropped. */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T | typeof ABORTED> {
  if (signal === NEVER_ABORTED) return work;
  return new Promise((resolve, reject) => {
    const onAbort = () => resolve(ABORTED);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** A call name fit for an error message; a hostile one may not even convert to a string. */
function nameForMessage(name: unknown): string {
  return typeof name === 'string' ? JSON.stringify(name.slice(0, 100)) : `of type ${typeof name}`;
}
