/*
 * An in-process GGUF model (node-llama-cpp) served from a child process, as a ChatModel and a TextEmbedder.
 */
import { basename } from 'node:path';
import type { MemoryEntry, ModelRole } from '../../../shared/domain/models';
import { QuireError } from '../../../shared/errors';
import type { CallOptions, ChatModel, ChatRequest, ChatResponse, TextEmbedder } from '../types';
import { contextBytes, describeGguf, type GgufDescription } from './describeGguf';
import { ModelHostClient } from './modelHostClient';
import { llamaBackend } from './residentMemory';
import type { HostModelInfo, LlamaGpuSetting } from './protocol';

export interface LlamaProviderOptions {
  modelPath: string;
  /** Tokens of chat context. Defaults to 4096, capped at the model's training context. */
  contextSize?: number;
  /** Defaults to 512 tokens; longer texts are cut to fit. */
  embeddingContextSize?: number;
  /** `'auto'` (default) uses the GPU when there is one; `false` forces the CPU. */
  gpu?: LlamaGpuSetting;
  /** CPU threads; leave unset to let node-llama-cpp choose. */
  threads?: number;
  /** Limit for a chat or embed call. Defaults to 5 minutes. */
  timeoutMs?: number;
  /** Limit for starting the host and loading the model. Defaults to 2 minutes. */
  loadTimeoutMs?: number;
  /** Roles this model serves, for its memory entry. */
  roles?: ModelRole[];
}

export interface LlamaProvider extends ChatModel, TextEmbedder {
  readonly description: GgufDescription;
  /** Starts the host and loads the model now rather than on the first call. */
  load(): Promise<HostModelInfo>;
  unload(): Promise<void>;
  dispose(): Promise<void>;
  /** What this model costs in memory at its configured context, loaded or not. */
  memoryEntry(): MemoryEntry;
  /** Called whenever the model is loaded or unloaded (including by a crash). */
  onLoadedChange(listener: (loaded: boolean) => void): () => void;
}

const DEFAULT_CONTEXT_SIZE = 4096;
const DEFAULT_TIMEOUT_MS = 5 * 60_000;

/**
 * Reads the model's header first (a file that is not a GGUF fails here, before any process starts),
 * then returns a provider whose host child starts on first use.
 */
export async function createLlamaProvider(options: LlamaProviderOptions): Promise<LlamaProvider> {
  const description = await describeGguf(options.modelPath, { backend: llamaBackend(options.gpu) });
  const contextSize = Math.min(
    options.contextSize ?? DEFAULT_CONTEXT_SIZE,
    description.trainContextSize || Infinity,
  );
  const host = new ModelHostClient({
    load: {
      modelPath: options.modelPath,
      contextSize,
      ...(options.embeddingContextSize === undefined
        ? {}
        : { embeddingContextSize: options.embeddingContextSize }),
      gpu: options.gpu ?? 'auto',
      ...(options.threads === undefined ? {} : { threads: options.threads }),
    },
    ...(options.loadTimeoutMs === undefined ? {} : { loadTimeoutMs: options.loadTimeoutMs }),
  });
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const listeners = new Set<(loaded: boolean) => void>();
  let loaded = false;
  const setLoaded = (next: boolean) => {
    if (next === loaded) return;
    loaded = next;
    for (const listener of listeners) listener(loaded);
  };
  // A crash or an unload is only visible on the next call, so the state is re-read after every call.
  const tracked = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      const result = await work();
      setLoaded(host.isLoaded);
      return result;
    } catch (error) {
      setLoaded(host.isLoaded);
      throw error;
    }
  };

  return {
    id: `llama:${options.modelPath}`,
    provider: 'llama',
    supportsImages: false,
    dimensions: description.embeddingLength,
    description,

    load: () => tracked(() => host.ensureLoaded()),

    async chat(request: ChatRequest): Promise<ChatResponse> {
      if (request.messages.some((message) => message.images?.length)) {
        throw new QuireError('unsupported', `${basename(options.modelPath)} cannot read images.`);
      }
      const result = await tracked(() =>
        host.chat(
          {
            messages: request.messages.map(({ role, content }) => ({ role, content })),
            ...(request.jsonSchema ? { jsonSchema: request.jsonSchema } : {}),
            ...(request.maxTokens === undefined ? {} : { maxTokens: request.maxTokens }),
            temperature: request.temperature ?? 0,
            stream: request.onToken !== undefined,
          },
          callOptions(request, timeoutMs, request.onToken),
        ),
      );
      return { text: result.text, outputTokens: result.outputTokens };
    },

    async embed(texts: string[], call: CallOptions = {}): Promise<Float32Array[]> {
      if (texts.length === 0) return [];
      return tracked(() => host.embed(texts, callOptions(call, timeoutMs)));
    },

    unload: () => tracked(() => host.unload()),

    async dispose() {
      await host.dispose();
      setLoaded(false);
      listeners.clear();
    },

    memoryEntry: () => ({
      id: `llama:${options.modelPath}`,
      label: description.name ?? basename(options.modelPath),
      roles: options.roles ?? [],
      loaded,
      weightsBytes: description.weightsBytes,
      kvCacheBytes: contextBytes(description, contextSize),
      contextSize,
      external: false,
    }),

    onLoadedChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

function callOptions(call: CallOptions, timeoutMs: number, onToken?: (text: string) => void) {
  return { timeoutMs, ...(call.signal ? { signal: call.signal } : {}), ...(onToken ? { onToken } : {}) };
}
