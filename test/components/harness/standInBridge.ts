/**
 * A stand-in for the engine behind `window.quire`, the object Electron's preload exposes: the panels
 * under test call it exactly as in the app. It checks every input, answer and event against the
 * contract, records the calls, and lets the test answer, hold or push events (see control.ts).
 */
import {
  callNames,
  calls,
  events,
  type CallName,
  type CallResult,
  type EventName,
} from '../../../src/shared/ipc/contract';
import type { QuirePreload } from '../../../src/renderer/src/ipc/preloadBridge';
import type { HarnessSetup, RecordedCall, StandInAnswer, StandInControl } from './control';
import { DEFAULT_ANSWERS } from './fixtures';

declare global {
  interface Window {
    standIn?: StandInControl;
  }
}

function checked(name: CallName, value: unknown): unknown {
  const parsed = calls[name].output.safeParse(value);
  if (!parsed.success) {
    throw new Error(`The stand-in's answer to ${name} breaks the contract: ${parsed.error.message}`);
  }
  return value;
}

export function installStandIn(setup: HarnessSetup): StandInControl {
  const answers = new Map<CallName, StandInAnswer>();
  const held = new Map<CallName, Array<() => void>>();
  const listeners = new Map<EventName, Set<(payload: unknown) => void>>();
  const recorded: RecordedCall[] = [];

  const control: StandInControl = {
    calls: recorded,
    respond(name, answer) {
      if ('value' in answer) checked(name, answer.value);
      answers.set(name, answer);
    },
    hold(name) {
      if (!held.has(name)) held.set(name, []);
    },
    release(name) {
      const waiting = held.get(name) ?? [];
      held.delete(name);
      waiting.forEach((go) => go());
    },
    emit(event, payload) {
      const parsed = events[event].safeParse(payload);
      if (!parsed.success) throw new Error(`The ${event} event breaks the contract: ${parsed.error.message}`);
      listeners.get(event)?.forEach((listener) => listener(payload));
    },
  };
  for (const [name, answer] of Object.entries(setup.answers ?? {})) {
    control.respond(name as CallName, answer);
  }

  /** Held calls the page may cancel, by the id it sent them with. */
  const cancellable = new Map<number, () => void>();

  async function answer(name: CallName, input: unknown, callId?: number): Promise<CallResult<unknown>> {
    const args = calls[name].input.safeParse(input);
    if (!args.success) return { ok: false, error: { code: 'invalid_input', message: args.error.message } };
    const call: RecordedCall = { name, input: args.data, ...(callId === undefined ? {} : { callId }) };
    recorded.push(call);
    const queue = held.get(name);
    if (queue) {
      // Like the engine: a cancelled call ends `cancelled`, without waiting for the release.
      const stopped = await new Promise<boolean>((go) => {
        queue.push(() => go(false));
        if (callId !== undefined) cancellable.set(callId, () => go(true));
      });
      if (callId !== undefined) cancellable.delete(callId);
      if (stopped) return { ok: false, error: { code: 'cancelled', message: 'Cancelled.' } };
    }
    const fixed = answers.get(name);
    if (fixed) return 'value' in fixed ? { ok: true, value: fixed.value } : { ok: false, error: fixed.error };
    const byDefault = DEFAULT_ANSWERS[name] as ((args: unknown) => unknown) | undefined;
    if (!byDefault) {
      return {
        ok: false,
        error: { code: 'unknown_call', message: `The stand-in has no answer to ${name}.` },
      };
    }
    return { ok: true, value: checked(name, byDefault(args.data)) };
  }

  const bridge: Record<string, unknown> = {
    on(event: EventName, listener: (payload: unknown) => void) {
      const set = listeners.get(event) ?? new Set();
      listeners.set(event, set);
      set.add(listener);
      return () => set.delete(listener);
    },
    getPathForFile: () => '',
    cancel(callId: number) {
      const call = recorded.find((each) => each.callId === callId);
      if (call) call.cancelled = true;
      cancellable.get(callId)?.();
    },
  };
  for (const name of callNames) {
    bridge[name] = (input: unknown, callId?: number) => answer(name, input, callId);
  }
  window.quire = bridge as QuirePreload;
  window.standIn = control;
  return control;
}
