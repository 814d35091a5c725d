/*
 * The interfaces every model provider implements and every consumer (index, agent) depends on.
 * Providers live beside this file (ollama/, openai/, llama/); consumers never name a provider.
 */
import type { ModelRole, ProviderKind } from '../../shared/domain/models';

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

export interface EmbedOptions extends CallOptions {
  /**
   * What the texts are: models trained with instructions (e5, bge) embed a search query differently
   * from the passages it should find. Defaults to `passage`; embedders without instructions ignore it.
   */
  kind?: 'query' | 'passage';
}

/** Dense text embeddings: one vector per text. */
export interface TextEmbedder {
  /** Stored with every vector: vectors of different ids are never compared. */
  readonly id: string;
  readonly dimensions: number;
  embed(texts: string[], options?: EmbedOptions): Promise<Float32Array[]>;
}

/** What a page embedder may look at. */
export interface PageInput {
  /** The page text split into segments (lines or sentences); empty for a page with no text layer. */
  segments: string[];
  /** Loads the rendered page image (WebP) when the embedder reads images. */
  loadImage?: () => Promise<Uint8Array>;
}

/** Late-interaction (ColQwen-style) embeddings: many vectors per page and per query. */
export interface PageEmbedder {
  readonly id: string;
  readonly dimensions: number;
  /** Null when this embedder cannot embed the page (e.g. text-based fallback on a page with no text). */
  embedPage(page: PageInput, options?: CallOptions): Promise<Float32Array[] | null>;
  embedQuery(query: string, options?: CallOptions): Promise<Float32Array[]>;
}

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
