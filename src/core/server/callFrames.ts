/*
 * What a WebSocket client may send: one text frame per call, `{ type: 'call', id, name, input }`, and
 * `{ type: 'cancel', id }` when it no longer wants the answer to its call `id`. Every frame is checked here before anything else reads it; a frame that fails gets a close code, so a
 * hostile or broken client loses its connection and nothing else.
 */
import type { RawData } from 'ws';
import { isCallId, isCallName, type CallName } from '../../shared/ipc/contract';

/** Largest frame a client may send; no call's input comes near it. ws closes bigger ones with 1009. */
export const MAX_FRAME_BYTES = 1024 * 1024;
/** Deepest nesting of objects and arrays a call's input may have; the contract needs a handful. */
const MAX_DEPTH = 32;
/** Keys that could reach an object's prototype if some code ever merged the input into an object. */
const PROTOTYPE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** WebSocket close codes (RFC 6455, section 7.4.1). */
export const CloseCode = {
  unsupportedData: 1003,
  invalidPayload: 1007,
  policyViolation: 1008,
  tooBig: 1009,
} as const;

export interface CallFrame {
  id: number;
  name: CallName;
  input: unknown;
}

/** The client no longer wants the answer to its call `id`. */
export interface CancelFrame {
  id: number;
}

export type FrameCheck =
  | { ok: true; call: CallFrame }
  | { ok: true; cancel: CancelFrame }
  | { ok: false; code: number; reason: string };

const refuse = (code: number, reason: string): FrameCheck => ({ ok: false, code, reason });
const utf8 = new TextDecoder('utf-8', { fatal: true });

export function checkCallFrame(data: RawData, isBinary: boolean): FrameCheck {
  if (isBinary) return refuse(CloseCode.unsupportedData, 'Text frames only');
  const bytes = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer);
  if (bytes.byteLength > MAX_FRAME_BYTES) return refuse(CloseCode.tooBig, 'Frame too large');
  let text: string;
  let message: unknown;
  try {
    text = utf8.decode(bytes);
  } catch {
    return refuse(CloseCode.invalidPayload, 'Invalid UTF-8');
  }
  try {
    message = JSON.parse(text);
  } catch {
    return refuse(CloseCode.invalidPayload, 'Malformed JSON');
  }
  if (!isPlainRecord(message)) return refuse(CloseCode.policyViolation, 'A call must be a JSON object');
  if (message.type === 'cancel') {
    const problem = cancelShapeProblem(message);
    return problem
      ? refuse(CloseCode.policyViolation, problem)
      : { ok: true, cancel: { id: message.id as number } };
  }
  const problem = shapeProblem(message);
  if (problem) return refuse(CloseCode.policyViolation, problem);
  const hostile = hostileStructure(message.input);
  if (hostile) return refuse(CloseCode.policyViolation, hostile);
  return {
    ok: true,
    call: { id: message.id as number, name: message.name as CallName, input: message.input },
  };
}

function shapeProblem(message: Record<string, unknown>): string | null {
  for (const key of Object.keys(message)) {
    if (key !== 'type' && key !== 'id' && key !== 'name' && key !== 'input') return 'Unknown field';
  }
  if (message.type !== 'call') return 'Unknown message type';
  if (!isCallId(message.id)) return 'Bad call id';
  if (!isCallName(message.name)) return 'Unknown call';
  return null;
}

function cancelShapeProblem(message: Record<string, unknown>): string | null {
  for (const key of Object.keys(message)) {
    if (key !== 'type' && key !== 'id') return 'Unknown field';
  }
  return isCallId(message.id) ? null : 'Bad call id';
}

/** Prototype keys or nesting beyond MAX_DEPTH anywhere in the input; walked without recursion. */
function hostileStructure(input: unknown): string | null {
  const stack: Array<{ value: unknown; depth: number }> = [{ value: input, depth: 0 }];
  while (stack.length > 0) {
    const { value, depth } = stack.pop()!;
    if (typeof value !== 'object' || value === null) continue;
    if (depth >= MAX_DEPTH) return 'Input nested too deeply';
    if (Array.isArray(value)) {
      for (const item of value) stack.push({ value: item, depth: depth + 1 });
      continue;
    }
    for (const [key, item] of Object.entries(value)) {
      if (PROTOTYPE_KEYS.has(key)) return 'Prototype key in input';
      stack.push({ value: item, depth: depth + 1 });
    }
  }
  return null;
}

function isPlainRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
