/*
 * A stand-in for Ollama's native API on 127.0.0.1, speaking its wire format: /api/tags, /api/ps,
 * /api/show, /api/embed, and /api/chat streamed as NDJSON ending with a `done: true` line. Failures
 * (404 for a model that is not pulled, 500, a stream cut mid-way, a slow server) are switched on per test.
 */
import type { ServerResponse } from 'node:http';
import type { RecordedRequest, StandInServer, StreamBehaviour } from './httpStandIn';
import { flushed, pause, sendJson, startStandIn, trigramVector } from './httpStandIn';

export interface OllamaStandInModel {
  name: string;
  family?: string;
  /** As /api/show reports them: `completion`, `vision`, `embedding`. */
  capabilities?: string[];
  embeddingLength?: number;
  contextLength?: number;
  sizeBytes?: number;
}

export interface OllamaStandInBehaviour extends StreamBehaviour {
  /** Models loaded in memory, for /api/ps. */
  running?: Array<{ name: string; sizeBytes: number; vramBytes: number }>;
  /** Wait this long before answering /api/embed only (a slow embedding model beside a quick chat model). */
  embedDelayMs?: number;
}

/** A model /api/pull can fetch: its layers, and what it becomes in /api/tags once pulled. */
export interface PullableModel {
  model: OllamaStandInModel;
  /** Layer sizes in bytes; each is streamed as `pulling <digest>` lines with total and completed. */
  layers: number[];
  /** Bytes per progress line. */
  stepBytes?: number;
  /** Wait between two progress lines. */
  delayMs?: number;
}

export interface OllamaStandIn extends StandInServer {
  models: OllamaStandInModel[];
  behaviour: OllamaStandInBehaviour;
  /** What /api/pull can fetch, by name; a name not here gets Ollama's "file does not exist" error. */
  library: Map<string, PullableModel>;
  /** Bytes of each layer already pulled, kept across pulls so a stopped pull resumes. */
  pulled: Map<string, number>;
  /** Bodies of every /api/chat request, in order. */
  chatBodies(): Array<Record<string, unknown>>;
}

const DEFAULT_REPLY = ['Hello', ' from', ' the', ' stand-in', '.'];
const STANDIN_CREATED_AT = '2025-01-01T00:00:00.000000Z';

function details(model: OllamaStandInModel) {
  const family = model.family ?? 'llama';
  return {
    parent_model: '',
    format: 'gguf',
    family,
    families: [family],
    parameter_size: '8.2B',
    quantization_level: 'Q4_K_M',
  };
}

function notFound(response: ServerResponse, name: string): void {
  sendJson(response, 404, { error: `model '${name}' not found` });
}

async function streamChat(
  request: RecordedRequest,
  response: ServerResponse,
  behaviour: OllamaStandInBehaviour,
  model: string,
): Promise<void> {
  const body = request.body as Record<string, unknown>;
  const pieces = (behaviour.reply ?? (() => DEFAULT_REPLY))(body);
  response.writeHead(200, { 'content-type': 'application/x-ndjson' });
  let sent = 0;
  for (const piece of pieces) {
    if (response.destroyed) return;
    if (behaviour.cutAfterPieces !== undefined && sent === behaviour.cutAfterPieces) {
      response.socket?.destroy();
      return;
    }
    if (behaviour.errorAfterPieces !== undefined && sent === behaviour.errorAfterPieces.pieces) {
      response.end(JSON.stringify({ error: behaviour.errorAfterPieces.message }) + '\n');
      return;
    }
    const line = {
      model,
      created_at: STANDIN_CREATED_AT,
      message: { role: 'assistant', content: piece },
      done: false,
    };
    await flushed(response, JSON.stringify(line) + '\n');
    sent++;
    if (behaviour.delayBetweenPiecesMs) await pause(behaviour.delayBetweenPiecesMs, response);
  }
  if (response.destroyed) return;
  response.end(
    JSON.stringify({
      model,
      created_at: STANDIN_CREATED_AT,
      message: { role: 'assistant', content: '' },
      done: true,
      done_reason: 'stop',
      total_duration: 1_000_000,
      load_duration: 100_000,
      prompt_eval_count: 12,
      prompt_eval_duration: 200_000,
      eval_count: pieces.length,
      eval_duration: 700_000,
    }) + '\n',
  );
}

const digestOf = (name: string, layer: number) =>
  `sha256:${Buffer.from(`${name}#${layer}`).toString('hex').padEnd(64, '0').slice(0, 64)}`;

/** Streams /api/pull the way Ollama does: manifest, each layer's progress, verify, write, success. */
async function streamPull(
  response: ServerResponse,
  name: string,
  library: Map<string, PullableModel>,
  pulled: Map<string, number>,
  onSuccess: (model: OllamaStandInModel) => void,
): Promise<void> {
  response.writeHead(200, { 'content-type': 'application/x-ndjson' });
  await flushed(response, JSON.stringify({ status: 'pulling manifest' }) + '\n');
  const entry = library.get(name);
  if (!entry) {
    response.end(JSON.stringify({ error: 'pull model manifest: file does not exist' }) + '\n');
    return;
  }
  for (const [layer, total] of entry.layers.entries()) {
    const digest = digestOf(name, layer);
    const step = entry.stepBytes ?? Math.max(1, Math.ceil(total / 4));
    let completed = pulled.get(digest) ?? 0;
    for (;;) {
      if (response.destroyed) return;
      await flushed(
        response,
        JSON.stringify({ status: `pulling ${digest.slice(7, 19)}`, digest, total, completed }) + '\n',
      );
      if (completed >= total) break;
      if (entry.delayMs) await pause(entry.delayMs, response);
      if (response.destroyed) return;
      completed = Math.min(total, completed + step);
      pulled.set(digest, completed);
    }
  }
  for (const status of ['verifying sha256 digest', 'writing manifest', 'success']) {
    await flushed(response, JSON.stringify({ status }) + '\n');
  }
  onSuccess(entry.model);
  response.end();
}

export async function startOllamaStandIn(
  models: OllamaStandInModel[],
  behaviour: OllamaStandInBehaviour = {},
): Promise<OllamaStandIn> {
  // Tests change models and behaviour between requests; the handler reads them at request time.
  const state: { models: OllamaStandInModel[]; behaviour: OllamaStandInBehaviour } = { models, behaviour };
  const library = new Map<string, PullableModel>();
  const pulled = new Map<string, number>();
  const find = (name: unknown) =>
    state.models.find((model) => model.name === name || model.name === `${String(name)}:latest`);

  const server = await startStandIn(async (request, response) => {
    const current = state.behaviour;
    if (current.delayBeforeHeadersMs) await pause(current.delayBeforeHeadersMs, response);
    if (response.destroyed) return;
    const body = (request.body ?? {}) as Record<string, unknown>;
    switch (`${request.method} ${request.path}`) {
      case 'GET /':
        response.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
        response.end('Ollama is running');
        return;
      case 'GET /api/version':
        sendJson(response, 200, { version: '0.6.8' });
        return;
      case 'GET /api/tags':
        sendJson(response, 200, {
          models: state.models.map((model) => ({
            name: model.name,
            model: model.name,
            modified_at: STANDIN_CREATED_AT,
            size: model.sizeBytes ?? 5_000_000_000,
            digest: 'sha256-standin',
            details: details(model),
          })),
        });
        return;
      case 'GET /api/ps':
        sendJson(response, 200, {
          models: (current.running ?? []).map((entry) => ({
            name: entry.name,
            model: entry.name,
            size: entry.sizeBytes,
            digest: 'sha256-standin',
            details: details(find(entry.name) ?? { name: entry.name }),
            expires_at: '2025-01-01T00:05:00.000000Z',
            size_vram: entry.vramBytes,
            context_length: 4096,
          })),
        });
        return;
      case 'POST /api/show': {
        const model = find(body.model ?? body.name);
        if (!model) return notFound(response, String(body.model ?? body.name));
        const family = model.family ?? 'llama';
        sendJson(response, 200, {
          modelfile: '# stand-in',
          parameters: 'temperature 0.7',
          template: '{{ .Prompt }}',
          details: details(model),
          model_info: {
            'general.architecture': family,
            [`${family}.context_length`]: model.contextLength ?? 8192,
            [`${family}.embedding_length`]: model.embeddingLength ?? 4096,
          },
          capabilities: model.capabilities ?? ['completion'],
          modified_at: STANDIN_CREATED_AT,
        });
        return;
      }
      case 'POST /api/chat': {
        const model = find(body.model);
        if (!model) return notFound(response, String(body.model));
        if (current.failWith)
          return sendJson(response, current.failWith.status, { error: current.failWith.message });
        if (body.stream === false) {
          const text = (current.reply ?? (() => DEFAULT_REPLY))(body).join('');
          sendJson(response, 200, {
            model: model.name,
            created_at: STANDIN_CREATED_AT,
            message: { role: 'assistant', content: text },
            done: true,
            done_reason: 'stop',
          });
          return;
        }
        await streamChat(request, response, current, model.name);
        return;
      }
      case 'POST /api/pull':
        await streamPull(response, String(body.model ?? body.name), library, pulled, (model) => {
          if (!find(model.name)) state.models = [...state.models, model];
        });
        return;
      case 'POST /api/embed': {
        const model = find(body.model);
        if (!model) return notFound(response, String(body.model));
        if (current.failWith)
          return sendJson(response, current.failWith.status, { error: current.failWith.message });
        if (!(model.capabilities ?? []).includes('embedding')) {
          return sendJson(response, 400, { error: `"${model.name}" does not support embeddings` });
        }
        if (current.embedDelayMs) await pause(current.embedDelayMs, response);
        if (response.destroyed) return;
        const input = Array.isArray(body.input) ? body.input.map(String) : [String(body.input)];
        sendJson(response, 200, {
          model: model.name,
          embeddings: input.map((text) => trigramVector(text, model.embeddingLength ?? 64)),
          total_duration: 1_000_000,
          load_duration: 100_000,
          prompt_eval_count: input.length,
        });
        return;
      }
      default:
        response.writeHead(404, { 'content-type': 'text/plain' });
        response.end('404 page not found');
    }
  });

  return Object.defineProperties(server, {
    models: { get: () => state.models, set: (value: OllamaStandInModel[]) => (state.models = value) },
    behaviour: {
      get: () => state.behaviour,
      set: (value: OllamaStandInBehaviour) => (state.behaviour = value),
    },
    library: { value: library },
    pulled: { value: pulled },
    chatBodies: {
      value: () =>
        server.requests
          .filter((entry) => entry.path === '/api/chat')
          .map((entry) => entry.body as Record<string, unknown>),
    },
  }) as OllamaStandIn;
}
