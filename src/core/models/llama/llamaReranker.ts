/*
 * A reranker GGUF (a cross-encoder such as bge-reranker-v2-m3 or Qwen3-Reranker) run by node-llama-cpp's
 * ranking context, in its own model host child like every in-process model.
 */
import { basename } from 'node:path';
import type { MemoryEntry } from '../../../shared/domain/models';
import type { CallOptions, Reranker } from '../types';
import { contextBytes, describeGguf, type GgufDescription } from './describeGguf';
import { ModelHostClient } from './modelHostClient';
import { llamaBackend } from './residentMemory';
import type { HostModelInfo, LlamaGpuSetting } from './protocol';

export interface LlamaRerankerOptions {
  modelPath: string;
  /** Tokens for one query and passage together. Defaults to 1024, capped at the model's training context. */
  contextSize?: number;
  /** `'auto'` (default) uses the GPU when there is one; `false` forces the CPU. */
  gpu?: LlamaGpuSetting;
  /** CPU threads; leave unset to let node-llama-cpp choose. */
  threads?: number;
  /** Limit for one rank call. Defaults to 60 s. */
  timeoutMs?: number;
  /** Limit for starting the host and loading the model. Defaults to 2 minutes. */
  loadTimeoutMs?: number;
}

export interface LlamaReranker extends Reranker {
  readonly description: GgufDescription;
  load(): Promise<HostModelInfo>;
  /** What the reranker costs in memory at its context, loaded or not. */
  memoryEntry(): MemoryEntry;
  dispose(): Promise<void>;
}

const DEFAULT_CONTEXT_SIZE = 1024;
const DEFAULT_TIMEOUT_MS = 60_000;

/** Reads the header first (a file that is not a GGUF fails here), then starts the host on first use. */
export async function createLlamaReranker(options: LlamaRerankerOptions): Promise<LlamaReranker> {
  const description = await describeGguf(options.modelPath, { backend: llamaBackend(options.gpu) });
  const contextSize = Math.min(
    options.contextSize ?? DEFAULT_CONTEXT_SIZE,
    description.trainContextSize || Infinity,
  );
  const host = new ModelHostClient({
    load: {
      modelPath: options.modelPath,
      contextSize,
      purpose: 'rank',
      gpu: options.gpu ?? 'auto',
      ...(options.threads === undefined ? {} : { threads: options.threads }),
    },
    ...(options.loadTimeoutMs === undefined ? {} : { loadTimeoutMs: options.loadTimeoutMs }),
  });
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  return {
    id: `llama-rank:${options.modelPath}`,
    description,
    load: () => host.ensureLoaded(),
    async rank(query: string, passages: string[], call: CallOptions = {}): Promise<number[]> {
      if (passages.length === 0) return [];
      return host.rank(query, passages, { timeoutMs, ...(call.signal ? { signal: call.signal } : {}) });
    },
    memoryEntry: () => ({
      id: `llama-rank:${options.modelPath}`,
      label: description.name ?? basename(options.modelPath),
      roles: [],
      loaded: host.isLoaded,
      weightsBytes: description.weightsBytes,
      kvCacheBytes: contextBytes(description, contextSize),
      contextSize,
      external: false,
    }),
    dispose: () => host.dispose(),
  };
}
