/*
 * The requests the parent sends the llama model host child; replies and cancellation are the common
 * host envelope (../host/protocol.ts).
 */
import type { HostCancel } from '../host/protocol';
import type { ChatMessage } from '../types';

export type { HostErrorInfo, HostReply } from '../host/protocol';

export type LlamaGpuSetting = 'auto' | false;

export interface LlamaLoadOptions {
  modelPath: string;
  /**
   * Tokens the chat context holds. Defaults to 4096, capped at the model's training context.
   * The KV cache grows linearly with it, so the memory budget may ask for less.
   */
  contextSize?: number;
  /** Context size of the embedding context. Defaults to 512: embedded texts are chunks, not documents. */
  embeddingContextSize?: number;
  /** `'auto'` uses Metal/CUDA/Vulkan when present; `false` forces the CPU. Defaults to `'auto'`. */
  gpu?: LlamaGpuSetting;
  /** CPU threads for evaluation; 0 lets llama.cpp decide. Defaults to 0. */
  threads?: number;
  /** Parallel chat sequences in the context; each one holds its own KV cache. Defaults to 1. */
  sequences?: number;
  /**
   * `generate` (default): a chat context, and an embedding context on first use. `rank`: only a
   * ranking context, for a cross-encoder reranker (a GGUF with a classification head).
   */
  purpose?: 'generate' | 'rank';
}

export interface HostChatRequest {
  messages: Array<Pick<ChatMessage, 'role' | 'content'>>;
  jsonSchema?: Record<string, unknown>;
  maxTokens?: number;
  temperature?: number;
  /** Sends each text piece back as a `token` message. */
  stream: boolean;
  /**
   * Forbids the byte-fallback tokens 0x80-0xFF. Defaults to true with a JSON schema: a lone high byte
   * can leave a multi-byte UTF-8 sequence open when the grammar closes the string, making invalid JSON.
   */
  banHighByteTokens?: boolean;
}

export interface HostChatResult {
  text: string;
  outputTokens: number;
  stopReason: string;
}

export interface HostModelInfo {
  modelPath: string;
  contextSize: number;
  trainContextSize: number;
  embeddingDimensions: number;
  gpu: string | false;
}

export type HostRequest =
  | { type: 'load'; id: number; options: LlamaLoadOptions }
  | { type: 'chat'; id: number; request: HostChatRequest }
  | { type: 'embed'; id: number; texts: string[] }
  /** Relevance of each document to the query, between 0 and 1, in the documents' order. */
  | { type: 'rank'; id: number; query: string; documents: string[] }
  | { type: 'unload'; id: number }
  | { type: 'dispose'; id: number }
  | HostCancel;
