import type { z } from 'zod';
import type * as ContractModule from '../../../shared/ipc/contract';
import type { CallName, CallOptions, CallResult, EventName, QuireApi } from '../../../shared/ipc/contract';
import { failure } from './socketMessages';
import type { Transport } from './transport';

type Contract = typeof ContractModule;

/**
 * The contract's schemas, loaded once the window has drawn what it opened for: building them (a few
 * hundred zod schemas) took about 50 ms of a cold window's start, before its first rows.
 */
let contract: Contract | null = null;
/** The schemas could not load (a damaged install): said once, and events are no longer held. */
let checksUnavailable = false;
let contractLoading: Promise<void> | null = null;
const whenContractSettled = new Set<() => void>();

/** Loads the schemas the calls and events are checked against; called once, more calls are free. */
export function loadContractChecks(): Promise<void> {
  contractLoading ??= import('../../../shared/ipc/contract')
    .then(
      (loaded) => {
        contract = loaded;
      },
      (error: unknown) => {
        checksUnavailable = true;
        console.error(
          `Quire: the contract's checks could not load (${String(error)}); events pass unchecked.`,
        );
      },
    )
    .finally(() => {
      for (const listener of whenContractSettled) listener();
      whenContractSettled.clear();
    });
  return contractLoading;
}

function describeIssues(error: z.ZodError): string {
  const first = error.issues[0];
  if (!first) return 'Invalid input.';
  const where = first.path.length > 0 ? `${first.path.join('.')}: ` : '';
  return `${where}${first.message}`;
}

/** Every call is named `area.verb`; anything else asked of the client is not a call. */
const isCallName = (name: string): name is CallName => name.includes('.');

/**
 * The QuireApi over any transport. Once the contract's schemas are here (`loadContractChecks`),
 * inputs are checked so a bad call fails without a round trip; before, a call goes out as it is and
 * the engine, which checks every call it is sent, answers a bad one with the same error. Event
 * payloads are always checked before any store sees them: those that come before the schemas wait
 * for them, in order.
 */
export function createQuireApi(transport: Transport): QuireApi {
  const calls = new Map<string, (input: unknown, options?: CallOptions) => Promise<CallResult<unknown>>>();
  const on = (event: EventName, listener: (payload: unknown) => void) => {
    const deliver = (payload: unknown) => {
      if (!contract) return listener(payload);
      const parsed = contract.events[event].safeParse(payload);
      if (!parsed.success) {
        console.warn(`Quire: dropped an invalid ${event} event: ${describeIssues(parsed.error)}`);
        return;
      }
      listener(parsed.data);
    };
    let held: unknown[] = [];
    let stopped = false;
    const unsubscribe = transport.subscribe(event, (payload) => {
      if (contract || checksUnavailable) return deliver(payload);
      if (held.length === 0) {
        whenContractSettled.add(() => {
          const waiting = held;
          held = [];
          if (!stopped) for (const each of waiting) deliver(each);
        });
      }
      held.push(payload);
    });
    return () => {
      stopped = true;
      unsubscribe();
    };
  };
  const api = new Proxy({} as Record<string, unknown>, {
    get: (_target, name) => {
      if (name === 'on') return on;
      if (typeof name !== 'string' || !isCallName(name)) return undefined;
      let call = calls.get(name);
      if (!call) {
        call = (input: unknown, options?: CallOptions) =>
          callChecked(transport, name, input, options?.signal);
        calls.set(name, call);
      }
      return call;
    },
  });
  return api as unknown as QuireApi;
}

async function callChecked(
  transport: Transport,
  name: CallName,
  input: unknown,
  signal: AbortSignal | undefined,
): Promise<CallResult<unknown>> {
  if (signal?.aborted) return failure('cancelled', 'Cancelled.');
  const checks = contract?.calls[name];
  if (checks) {
    const checked = checks.input.safeParse(input ?? {});
    if (!checked.success) return failure('invalid_input', describeIssues(checked.error));
  }
  return transport.call(name, input ?? {}, signal);
}
