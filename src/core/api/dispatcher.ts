import {
  calls,
  isCallName,
  type CallArgs,
  type CallName,
  type CallOutput,
  type CallResult,
} from '../../shared/ipc/contract';
import { QuireError, toErrorInfo } from '../../shared/errors';

export type CallHandlers = { [K in CallName]: (args: CallArgs<K>) => Promise<CallOutput<K>> };

export type Dispatch = (name: unknown, input: unknown) => Promise<CallResult<unknown>>;

/**
 * The one door into core for every transport (Electron IPC, the WebSocket server, tests): checks the
 * call exists, validates its input against the contract, runs the handler and validates what it
 * returns, and turns every failure into `{ ok: false, error }`. Nothing thrown escapes.
 */
export function createDispatcher(handlers: CallHandlers): Dispatch {
  return async (name, input) => {
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
    try {
      const handler = handlers[name] as (args: unknown) => Promise<unknown>;
      const value = await handler(parsed.data);
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

/** A call name fit for an error message; a hostile one may not even convert to a string. */
function nameForMessage(name: unknown): string {
  return typeof name === 'string' ? JSON.stringify(name.slice(0, 100)) : `of type ${typeof name}`;
}
