/*
 * The one way model providers talk HTTP: a per-call inactivity time-out, the caller's AbortSignal, and
 * network failures turned into errors a user can act on.
 */
import { QuireError } from '../../../shared/errors';
import { loopbackRefuses } from './loopbackRefusal';

export type FetchLike = typeof fetch;

export interface HttpEndpoint {
  /** e.g. `http://127.0.0.1:11434`; no trailing slash needed. */
  baseUrl: string;
  /** Longest silence allowed: before the response starts, and between two pieces of a stream. */
  idleTimeoutMs: number;
  headers?: Record<string, string>;
  fetch?: FetchLike;
  /** Said when nothing listens at the address, e.g. "start it with `ollama serve`". */
  notRunningHint?: string;
}

export interface HttpCall {
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
  signal?: AbortSignal;
}

/** Maps a non-2xx answer to the error the user sees; the body is the server's text as sent. */
export type HttpErrorMapper = (status: number, bodyText: string) => QuireError;

/** `127.0.0.1:11434` for `http://127.0.0.1:11434/v1`: how errors name a server. */
export function serverAddress(baseUrl: string): string {
  try {
    const url = new URL(baseUrl);
    return url.host;
  } catch {
    return baseUrl;
  }
}

/** The server's own words from an error body: Ollama, OpenAI and FastAPI each nest it differently. */
export function serverMessage(bodyText: string): string {
  const fallback = bodyText.trim().slice(0, 300);
  try {
    const parsed = JSON.parse(bodyText) as unknown;
    if (typeof parsed !== 'object' || parsed === null) return fallback;
    const record = parsed as Record<string, unknown>;
    const error = record.error;
    if (typeof error === 'string') return error;
    if (typeof error === 'object' && error !== null) {
      const message = (error as Record<string, unknown>).message;
      if (typeof message === 'string') return message;
    }
    if (typeof record.detail === 'string') return record.detail;
    if (typeof record.message === 'string') return record.message;
    return fallback;
  } catch {
    return fallback;
  }
}

/** Aborts a request on the caller's signal or after a silence; remembers which one fired. */
class Watchdog {
  readonly controller = new AbortController();
  timedOut = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly onCallerAbort = () => this.controller.abort();

  constructor(
    private readonly idleTimeoutMs: number,
    readonly callerSignal: AbortSignal | undefined,
  ) {
    callerSignal?.addEventListener('abort', this.onCallerAbort, { once: true });
    this.touch();
  }

  touch(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timedOut = true;
      this.controller.abort();
    }, this.idleTimeoutMs);
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.callerSignal?.removeEventListener('abort', this.onCallerAbort);
  }
}

function networkCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && typeof current === 'object' && current !== null; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

function translate(error: unknown, watchdog: Watchdog, endpoint: HttpEndpoint, started: boolean): QuireError {
  if (error instanceof QuireError) return error;
  const address = serverAddress(endpoint.baseUrl);
  if (watchdog.callerSignal?.aborted) return new QuireError('cancelled', 'Cancelled.');
  if (watchdog.timedOut) {
    const seconds = Math.max(1, Math.round(endpoint.idleTimeoutMs / 1000));
    return new QuireError(
      'timeout',
      started
        ? `The server at ${address} went silent for ${seconds} s in the middle of an answer.`
        : `The server at ${address} did not answer within ${seconds} s.`,
    );
  }
  const code = networkCode(error);
  if (code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EHOSTUNREACH') {
    const hint = endpoint.notRunningHint ? `: ${endpoint.notRunningHint}` : '';
    return new QuireError('model_unavailable', `Nothing is answering at ${address}${hint}.`, { code });
  }
  return new QuireError(
    'model_unavailable',
    started
      ? `The server at ${address} stopped answering in the middle of an answer.`
      : `The server at ${address} stopped answering.`,
    { code: code ?? (error instanceof Error ? error.message : String(error)) },
  );
}

async function open(
  endpoint: HttpEndpoint,
  call: HttpCall,
  mapError: HttpErrorMapper,
): Promise<{ response: Response; watchdog: Watchdog }> {
  if (call.signal?.aborted) throw new QuireError('cancelled', 'Cancelled.');
  const watchdog = new Watchdog(endpoint.idleTimeoutMs, call.signal);
  const fetchImpl = endpoint.fetch ?? fetch;
  const url = endpoint.baseUrl.replace(/\/+$/, '') + call.path;
  try {
    if (!endpoint.fetch && (await loopbackRefuses(endpoint.baseUrl, watchdog.controller.signal))) {
      throw Object.assign(new Error(`connect ECONNREFUSED ${serverAddress(endpoint.baseUrl)}`), {
        code: 'ECONNREFUSED',
      });
    }
    const response = await fetchImpl(url, {
      method: call.method,
      headers: {
        ...(call.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...endpoint.headers,
      },
      body: call.body === undefined ? undefined : JSON.stringify(call.body),
      signal: watchdog.controller.signal,
    });
    watchdog.touch();
    if (!response.ok) {
      const bodyText = await response.text();
      throw mapError(response.status, bodyText);
    }
    return { response, watchdog };
  } catch (error) {
    watchdog.dispose();
    throw translate(error, watchdog, endpoint, false);
  }
}

/** One request, one JSON answer. */
export async function requestJson(
  endpoint: HttpEndpoint,
  call: HttpCall,
  mapError: HttpErrorMapper,
): Promise<unknown> {
  const { response, watchdog } = await open(endpoint, call, mapError);
  try {
    const text = await response.text();
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new QuireError(
        'model_failed',
        `The server at ${serverAddress(endpoint.baseUrl)} sent something that is not JSON: ${text.slice(0, 120)}`,
      );
    }
  } catch (error) {
    throw translate(error, watchdog, endpoint, true);
  } finally {
    watchdog.dispose();
  }
}

/**
 * One request whose answer arrives line by line (NDJSON, SSE). Breaking out of the loop, the caller's
 * signal or a silence closes the connection.
 */
export async function* requestLines(
  endpoint: HttpEndpoint,
  call: HttpCall,
  mapError: HttpErrorMapper,
): AsyncGenerator<string> {
  const { response, watchdog } = await open(endpoint, call, mapError);
  const body = response.body;
  if (!body) {
    watchdog.dispose();
    return;
  }
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  try {
    for (;;) {
      let chunk: Awaited<ReturnType<typeof reader.read>>;
      try {
        chunk = await reader.read();
      } catch (error) {
        throw translate(error, watchdog, endpoint, true);
      }
      if (chunk.done) break;
      watchdog.touch();
      buffer += decoder.decode(chunk.value, { stream: true });
      let newline = buffer.indexOf('\n');
      while (newline >= 0) {
        yield buffer.slice(0, newline).replace(/\r$/, '');
        buffer = buffer.slice(newline + 1);
        newline = buffer.indexOf('\n');
      }
    }
    buffer += decoder.decode();
    if (buffer.length > 0) yield buffer;
  } finally {
    watchdog.dispose();
    // Closes the socket when the caller stops early; harmless once the body has ended.
    reader.cancel().catch(() => undefined);
  }
}

/** Server-sent events: the `data:` payloads, one per event. */
export async function* sseData(lines: AsyncIterable<string>): AsyncGenerator<string> {
  let data: string[] = [];
  for await (const line of lines) {
    if (line === '') {
      if (data.length > 0) yield data.join('\n');
      data = [];
    } else if (line.startsWith('data:')) {
      data.push(line.slice(5).replace(/^ /, ''));
    }
  }
  if (data.length > 0) yield data.join('\n');
}
