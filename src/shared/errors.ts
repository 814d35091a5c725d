/**
 * Error codes every surface (IPC, WebSocket, CLI) understands. A code says what the user can do about
 * the failure; the message says it in words.
 */
export const ERROR_CODES = [
  'invalid_input',
  'unknown_call',
  'forbidden',
  'not_found',
  'not_a_folder',
  'not_readable',
  'already_exists',
  'outside_library',
  'needs_password',
  'wrong_password',
  'model_unavailable',
  'model_failed',
  'cancelled',
  'timeout',
  'disk_full',
  'unsupported',
  /** A format Quire lists but does not read; the message says what to do (e.g. save it as .docx). */
  'unsupported_format',
  'internal',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export interface ErrorInfo {
  code: ErrorCode;
  message: string;
  details?: unknown;
}

/** An error meant to be shown to the user: its message must make sense without a stack trace. */
export class QuireError extends Error {
  readonly code: ErrorCode;
  readonly details: unknown;

  constructor(code: ErrorCode, message: string, details?: unknown) {
    super(message);
    this.name = 'QuireError';
    this.code = code;
    this.details = details;
  }

  toInfo(): ErrorInfo {
    return this.details === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, details: this.details };
  }
}

/** Turns anything thrown into an ErrorInfo without leaking stack traces to the UI. */
export function toErrorInfo(error: unknown): ErrorInfo {
  if (error instanceof QuireError) return error.toInfo();
  if (isAbortError(error)) return { code: 'cancelled', message: 'Cancelled.' };
  const message = error instanceof Error ? error.message : String(error);
  return { code: 'internal', message: message || 'Unexpected error.' };
}

export function isAbortError(error: unknown): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    'name' in error &&
    (error.name === 'AbortError' || (error instanceof QuireError && error.code === 'cancelled'))
  );
}
