/*
 * The interfaces every model provider implements and every consumer (index, agent) depends on.
 * Providers live beside this file (ollama/, openai/, llama/); consumers never name a provider.
 */
import type { ModelRole, ProviderKind } from '../../shared/domain/models';
import type { PageEmbedder, TextEmbedCallOptions, TextEmbedder } from '../common/embedderPorts';

// The embedder shapes are declared once, below both this layer and the index.
export type { PageEmbedder, PageInput, TextEmbedder } from '../common/embedderPorts';

export interface CallOptions {
  /** Cancels the call; providers free the sequence/context or close the stream at once. */
  signal?: AbortSignal;
}

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
  /** Encoded images (PNG/JPEG/WebP) for vision models. */
  images?: Uint8Array[];
}

export interface ChatRequest extends CallOptions {
  messages: ChatMessage[];
  /** When set, the output must be JSON valid against this JSON Schema (grammar / format / response_format). */
  jsonSchema?: Record<string, unknown>;
  maxTokens?: number;
  temperature?: number;
  /** Called with each piece of text as it is generated. */
  onToken?: (text: string) => void;
}

export interface ChatResponse {
  text: string;
  /** Tokens generated, when the provider reports it. */
  outputTokens?: number;
}

export interface ChatModel {
  /** Stable id, e.g. `ollama:qwen3:8b` or `llama:/models/x.gguf`. */
  readonly id: string;
  readonly provider: ProviderKind;
  readonly supportsImages: boolean;
  chat(request: ChatRequest): Promise<ChatResponse>;
}

/** A text embedding call: its signal and whether the texts are queries or passages. */
export type EmbedOptions = TextEmbedCallOptions;

/** A cross-encoder reranker: how relevant each passage is to a query. */
export interface Reranker {
  readonly id: string;
  /** Scores between 0 and 1, in the passages' order; higher is more relevant. */
  rank(query: string, passages: string[], options?: CallOptions): Promise<number[]>;
}

/** What the rest of core asks of the models layer. */
export interface ModelRoles {
  chatModel(role: Extract<ModelRole, 'decide' | 'answer' | 'see'>): Promise<ChatModel | null>;
  textEmbedder(): Promise<TextEmbedder | null>;
  pageEmbedder(): Promise<PageEmbedder | null>;
}
