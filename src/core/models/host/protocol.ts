/*
 * The envelope every in-process model host speaks over its IPC channel (Node's `advanced`
 * serialization, so typed arrays cross without a JSON detour). Each host names its own requests;
 * replies, errors and cancellation are the same for all of them.
 */
import type { ErrorCode } from '../../../shared/errors';

/** A request a host understands: a `type`, the id its reply carries, and its own fields. */
export interface HostRequestBase {
  type: string;
  id: number;
}

/** Stops request `targetId`; answered by that request's own error, not by a reply of its own. */
export interface HostCancel {
  type: 'cancel';
  targetId: number;
}

export interface HostErrorInfo {
  code: ErrorCode;
  message: string;
}

export type HostReply =
  | { type: 'ready'; pid: number }
  | { type: 'token'; id: number; text: string }
  | { type: 'result'; id: number; value: unknown }
  | { type: 'error'; id: number; error: HostErrorInfo };
