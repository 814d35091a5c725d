import { ERROR_CODES } from '../../../shared/errors';
import type { ErrorInfo } from '../../../shared/errors';
import type { CallName, CallResult } from '../../../shared/ipc/contract';

/** The WebSocket bridge's wire format, kept free of sockets so it can be tested alone. */
export type ServerMessage =
  | { type: 'result'; id: number; result: CallResult<unknown> }
  | { type: 'event'; name: string; payload: unknown };

export function encodeCall(id: number, name: CallName, input: unknown): string {
  return JSON.stringify({ type: 'call', id, name, input });
}

/** Asks the server to stop call `id`; it answers that call `cancelled`. */
export function encodeCancel(id: number): string {
  return JSON.stringify({ type: 'cancel', id });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function parseErrorInfo(value: unknown): ErrorInfo | null {
  if (!isRecord(value) || typeof value.message !== 'string') return null;
  const code = (ERROR_CODES as readonly unknown[]).includes(value.code)
    ? (value.code as ErrorInfo['code'])
    : 'internal';
  return value.details === undefined
    ? { code, message: value.message }
    : { code, message: value.message, details: value.details };
}

function parseCallResult(value: unknown): CallResult<unknown> | null {
  if (!isRecord(value)) return null;
  if (value.ok === true) return { ok: true, value: value.value };
  if (value.ok === false) {
    const error = parseErrorInfo(value.error);
    return error ? { ok: false, error } : null;
  }
  return null;
}

/** Returns null for anything that is not a well-formed server message. */
export function parseServerMessage(raw: unknown): ServerMessage | null {
  if (typeof raw !== 'string') return null;
  let data: unknown;
  try {
    data = JSON.parse(raw);
  } catch {
    return null;
  }
  if (!isRecord(data)) return null;
  if (data.type === 'result' && typeof data.id === 'number') {
    const result = parseCallResult(data.result);
    return result ? { type: 'result', id: data.id, result } : null;
  }
  if (data.type === 'event' && typeof data.name === 'string') {
    return { type: 'event', name: data.name, payload: data.payload };
  }
  return null;
}

export function failure(code: ErrorInfo['code'], message: string): CallResult<never> {
  return { ok: false, error: { code, message } };
}

/** Calls sent and not yet answered, by id. */
export class PendingCalls {
  private nextId = 1;
  private readonly waiting = new Map<number, (result: CallResult<unknown>) => void>();

  get size(): number {
    return this.waiting.size;
  }

  open(): { id: number; result: Promise<CallResult<unknown>> } {
    const id = this.nextId++;
    const result = new Promise<CallResult<unknown>>((resolve) => this.waiting.set(id, resolve));
    return { id, result };
  }

  /** False when nothing waits for `id` (a late or duplicate answer). */
  settle(id: number, result: CallResult<unknown>): boolean {
    const resolve = this.waiting.get(id);
    if (!resolve) return false;
    this.waiting.delete(id);
    resolve(result);
    return true;
  }

  settleAll(result: CallResult<never>): void {
    const all = [...this.waiting.values()];
    this.waiting.clear();
    for (const resolve of all) resolve(result);
  }
}
