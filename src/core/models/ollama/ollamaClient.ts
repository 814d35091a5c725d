/*
 * Ollama's native API (/api/tags, /api/chat, /api/embed, /api/ps, /api/show) with errors that say what
 * to do next.
 */
import { QuireError } from '../../../shared/errors';
import type { FetchLike, HttpEndpoint } from '../http/transport';
import { requestJson, requestLines, serverAddress, serverMessage } from '../http/transport';
import { ollamaBaseUrl } from './ollamaHost';

export interface OllamaClientOptions {
  /** Defaults to OLLAMA_HOST, then http://127.0.0.1:11434. */
  baseUrl?: string;
  /** Longest silence per call (before the answer starts, or between two streamed pieces). */
  idleTimeoutMs?: number;
  fetch?: FetchLike;
}

export interface OllamaModelInfo {
  name: string;
  sizeBytes: number;
  family: string | null;
  families: string[];
  parameterSize: string | null;
}

export interface OllamaRunningModel {
  name: string;
  sizeBytes: number;
  vramBytes: number;
  contextLength: number | null;
  expiresAt: string | null;
}

export interface OllamaModelDetails {
  family: string | null;
  contextLength: number | null;
  embeddingLength: number | null;
  /** As reported (`completion`, `vision`, `embedding`, `tools`, ...); empty on servers too old to say. */
  capabilities: string[];
}

export interface OllamaChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
  /** Base64 without a data-URI prefix, as Ollama expects. */
  images?: string[];
}

export interface OllamaChatBody {
  model: string;
  messages: OllamaChatMessage[];
  /** A JSON Schema the output must match. */
  format?: Record<string, unknown>;
  options?: { temperature?: number; num_predict?: number };
}

export interface OllamaChatResult {
  text: string;
  evalCount: number | undefined;
  doneReason: string | undefined;
}

const DEFAULT_IDLE_TIMEOUT_MS = 120_000;
/** Ollama is quiet while it verifies a large layer's digest: allow it minutes, not seconds. */
const PULL_IDLE_TIMEOUT_MS = 10 * 60_000;

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
}

function stringOrNull(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

function numberOrNull(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

export class OllamaClient {
  readonly baseUrl: string;
  private readonly endpoint: HttpEndpoint;

  constructor(options: OllamaClientOptions = {}) {
    this.baseUrl = (options.baseUrl ?? ollamaBaseUrl()).replace(/\/+$/, '');
    this.endpoint = {
      baseUrl: this.baseUrl,
      idleTimeoutMs: options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS,
      fetch: options.fetch,
      notRunningHint: 'is Ollama running? Start it with `ollama serve` or open the Ollama app',
    };
  }

  get address(): string {
    return serverAddress(this.baseUrl);
  }

  /** The error for a non-2xx answer, in terms of the model the call was about. */
  private errorFor(model: string | null) {
    return (status: number, bodyText: string): QuireError => {
      const message = serverMessage(bodyText);
      if (status === 404 && model !== null) {
        return new QuireError(
          'model_unavailable',
          `Ollama is running but \`${model}\` is not pulled: run \`ollama pull ${model}\` or choose another model.`,
          { status, server: message },
        );
      }
      const about = model === null ? '' : ` on \`${model}\``;
      return new QuireError('model_failed', `Ollama at ${this.address} failed${about}: ${message}`, {
        status,
        server: message,
      });
    };
  }

  async listModels(signal?: AbortSignal): Promise<OllamaModelInfo[]> {
    const body = record(
      await requestJson(this.endpoint, { method: 'GET', path: '/api/tags', signal }, this.errorFor(null)),
    );
    const models = Array.isArray(body.models) ? body.models : [];
    return models.map((entry) => {
      const model = record(entry);
      const details = record(model.details);
      return {
        name: String(model.name ?? model.model ?? ''),
        sizeBytes: numberOrNull(model.size) ?? 0,
        family: stringOrNull(details.family),
        families: Array.isArray(details.families) ? details.families.map(String) : [],
        parameterSize: stringOrNull(details.parameter_size),
      };
    });
  }

  /** Models loaded in memory now, with how much of each sits in VRAM. */
  async runningModels(signal?: AbortSignal): Promise<OllamaRunningModel[]> {
    const body = record(
      await requestJson(this.endpoint, { method: 'GET', path: '/api/ps', signal }, this.errorFor(null)),
    );
    const models = Array.isArray(body.models) ? body.models : [];
    return models.map((entry) => {
      const model = record(entry);
      return {
        name: String(model.name ?? model.model ?? ''),
        sizeBytes: numberOrNull(model.size) ?? 0,
        vramBytes: numberOrNull(model.size_vram) ?? 0,
        contextLength: numberOrNull(model.context_length),
        expiresAt: stringOrNull(model.expires_at),
      };
    });
  }

  async showModel(model: string, signal?: AbortSignal): Promise<OllamaModelDetails> {
    const body = record(
      await requestJson(
        this.endpoint,
        { method: 'POST', path: '/api/show', body: { model }, signal },
        this.errorFor(model),
      ),
    );
    const details = record(body.details);
    const info = record(body.model_info);
    const architecture = stringOrNull(info['general.architecture']);
    const infoNumber = (suffix: string): number | null => {
      if (architecture !== null) {
        const exact = numberOrNull(info[`${architecture}.${suffix}`]);
        if (exact !== null) return exact;
      }
      const key = Object.keys(info).find((name) => name.endsWith(`.${suffix}`));
      return key === undefined ? null : numberOrNull(info[key]);
    };
    return {
      family: stringOrNull(details.family) ?? architecture,
      contextLength: infoNumber('context_length'),
      embeddingLength: infoNumber('embedding_length'),
      capabilities: Array.isArray(body.capabilities) ? body.capabilities.map(String) : [],
    };
  }

  /** Streams a chat answer (NDJSON); every piece of text goes to `onToken` as it arrives. */
  async chat(
    body: OllamaChatBody,
    onToken: ((text: string) => void) | undefined,
    signal?: AbortSignal,
  ): Promise<OllamaChatResult> {
    const lines = requestLines(
      this.endpoint,
      { method: 'POST', path: '/api/chat', body: { ...body, stream: true }, signal },
      this.errorFor(body.model),
    );
    let text = '';
    for await (const message of this.messages(lines)) {
      if (typeof message.error === 'string') {
        throw new QuireError('model_failed', `Ollama failed on \`${body.model}\`: ${message.error}`, {
          server: message.error,
        });
      }
      const piece = record(message.message).content;
      if (typeof piece === 'string' && piece !== '') {
        text += piece;
        onToken?.(piece);
      }
      if (message.done === true) {
        return {
          text,
          evalCount: numberOrNull(message.eval_count) ?? undefined,
          doneReason: stringOrNull(message.done_reason) ?? undefined,
        };
      }
    }
    throw new QuireError(
      'model_failed',
      `The server at ${this.address} closed the stream before \`${body.model}\` finished its answer.`,
    );
  }

  /**
   * Pulls a model as `ollama pull` does, reporting bytes across all its layers as Ollama streams them.
   * A pull that stops part-way resumes from Ollama's partial layers the next time.
   */
  async pull(
    model: string,
    onProgress: (progress: { bytesDone: number; bytesTotal: number | null; status: string }) => void,
    signal?: AbortSignal,
  ): Promise<void> {
    const lines = requestLines(
      { ...this.endpoint, idleTimeoutMs: Math.max(this.endpoint.idleTimeoutMs, PULL_IDLE_TIMEOUT_MS) },
      { method: 'POST', path: '/api/pull', body: { model, stream: true }, signal },
      (status, bodyText) =>
        new QuireError(
          'model_unavailable',
          `Ollama could not pull \`${model}\`: ${serverMessage(bodyText)}`,
          {
            status,
          },
        ),
    );
    const layers = new Map<string, { total: number; completed: number }>();
    for await (const message of this.messages(lines)) {
      if (typeof message.error === 'string')
        throw new QuireError('model_unavailable', `Ollama could not pull \`${model}\`: ${message.error}`);
      const status = String(message.status ?? '');
      const digest = stringOrNull(message.digest);
      const total = numberOrNull(message.total);
      if (digest !== null && total !== null)
        layers.set(digest, {
          total,
          completed: numberOrNull(message.completed) ?? layers.get(digest)?.completed ?? 0,
        });
      const all = [...layers.values()];
      onProgress({
        bytesDone: all.reduce((sum, layer) => sum + layer.completed, 0),
        bytesTotal: all.length === 0 ? null : all.reduce((sum, layer) => sum + layer.total, 0),
        status,
      });
      if (status === 'success') return;
    }
    throw new QuireError(
      'model_failed',
      `Ollama at ${this.address} ended the pull of \`${model}\` without saying it succeeded.`,
    );
  }

  /** Ollama's NDJSON stream as one record per line; blank lines skipped, a line that is not JSON an error. */
  private async *messages(lines: AsyncIterable<string>): AsyncGenerator<Record<string, unknown>> {
    for await (const line of lines) {
      if (line.trim() === '') continue;
      let message: Record<string, unknown>;
      try {
        message = record(JSON.parse(line));
      } catch {
        throw new QuireError(
          'model_failed',
          `Ollama at ${this.address} sent a line that is not JSON: ${line.slice(0, 120)}`,
        );
      }
      yield message;
    }
  }

  async embed(model: string, input: string[], signal?: AbortSignal): Promise<number[][]> {
    const body = record(
      await requestJson(
        this.endpoint,
        { method: 'POST', path: '/api/embed', body: { model, input }, signal },
        this.errorFor(model),
      ),
    );
    const embeddings = body.embeddings;
    if (!Array.isArray(embeddings) || embeddings.length !== input.length) {
      throw new QuireError(
        'model_failed',
        `Ollama returned ${Array.isArray(embeddings) ? embeddings.length : 'no'} embeddings for ${input.length} texts from \`${model}\`.`,
      );
    }
    return embeddings.map((vector) => (Array.isArray(vector) ? vector.map(Number) : []));
  }
}
