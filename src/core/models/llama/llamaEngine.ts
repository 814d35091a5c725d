/*
 * node-llama-cpp driven directly: one model, a chat context with a small pool of sequences and a lazily
 * created embedding context. The model host child wraps it; the benchmark also runs it in-process to
 * measure what the isolation costs.
 */
import {
  getLlama,
  LlamaChat,
  TokenBias,
  type ChatHistoryItem,
  type Llama,
  type LlamaContext,
  type LlamaContextSequence,
  type LlamaEmbeddingContext,
  type LlamaGrammar,
  type LlamaModel,
  type LlamaRankingContext,
  type Token,
} from 'node-llama-cpp';
import { QuireError } from '../../../shared/errors';
import { checkedGguf } from '../ggufHeader';
import type { HostChatRequest, HostChatResult, HostModelInfo, LlamaLoadOptions } from './protocol';

const DEFAULT_CONTEXT_SIZE = 4096;
const DEFAULT_EMBEDDING_CONTEXT_SIZE = 512;
/** A query and one passage: passages are chunks of a few hundred words. */
const DEFAULT_RANKING_CONTEXT_SIZE = 1024;
const EMBEDDING_RESERVED_TOKENS = 3;
const GRAMMAR_CACHE_LIMIT = 16;
const HIGH_BYTE_TOKEN = /^<0x[89A-F][0-9A-F]>$/i;

export interface EngineCallOptions {
  signal?: AbortSignal;
  onToken?: (text: string) => void;
}

interface SequenceSlot {
  sequence: LlamaContextSequence;
  chat: LlamaChat;
  busy: boolean;
}

export class LlamaEngine {
  private llama: Llama | null = null;
  private model: LlamaModel | null = null;
  private context: LlamaContext | null = null;
  private embeddingContext: Promise<LlamaEmbeddingContext> | null = null;
  private rankingContext: LlamaRankingContext | null = null;
  private options: LlamaLoadOptions | null = null;
  private slots: SequenceSlot[] = [];
  private readonly slotWaiters: Array<() => void> = [];
  private readonly grammars = new Map<string, Promise<LlamaGrammar>>();
  private highByteBias: TokenBias | null = null;

  async load(options: LlamaLoadOptions): Promise<HostModelInfo> {
    if (this.model) await this.unload();
    this.options = options;
    // llama.cpp trusts the header; one that lies aborts this process (see ggufHeader.ts).
    await checkedGguf(options.modelPath);
    try {
      this.llama ??= await getLlama({ gpu: options.gpu ?? 'auto', build: 'never', progressLogs: false });
      this.model = await this.llama.loadModel({ modelPath: options.modelPath });
      const trainContextSize = this.model.trainContextSize;
      if (options.purpose === 'rank') return await this.loadRanking(this.model, options);
      const contextSize = Math.min(options.contextSize ?? DEFAULT_CONTEXT_SIZE, trainContextSize);
      const sequences = Math.max(1, options.sequences ?? 1);
      this.context = await this.model.createContext({
        contextSize,
        sequences,
        ...(options.threads === undefined ? {} : { threads: options.threads }),
      });
      const context = this.context;
      this.slots = Array.from({ length: sequences }, () => {
        const sequence = context.getSequence();
        return { sequence, chat: new LlamaChat({ contextSequence: sequence }), busy: false };
      });
      return {
        modelPath: options.modelPath,
        contextSize: this.context.contextSize,
        trainContextSize,
        embeddingDimensions: this.model.embeddingVectorSize,
        gpu: this.llama.gpu,
      };
    } catch (error) {
      await this.unload();
      throw new QuireError(
        'model_failed',
        `Could not load the model ${options.modelPath}: ${describe(error)}`,
      );
    }
  }

  /** A reranker loads a ranking context only; node-llama-cpp checks the model has a ranking head. */
  private async loadRanking(model: LlamaModel, options: LlamaLoadOptions): Promise<HostModelInfo> {
    if (!model.fileInsights.supportsRanking) {
      throw new Error(
        'it has no ranking head (a reranker GGUF has a classification output and rank pooling)',
      );
    }
    this.rankingContext = await model.createRankingContext({
      contextSize: Math.min(options.contextSize ?? DEFAULT_RANKING_CONTEXT_SIZE, model.trainContextSize),
      ...(options.threads === undefined ? {} : { threads: options.threads }),
    });
    return {
      modelPath: options.modelPath,
      contextSize: this.rankingContext.contextSize,
      trainContextSize: model.trainContextSize,
      embeddingDimensions: 0,
      gpu: this.llama!.gpu,
    };
  }

  /**
   * How relevant each document is to the query, between 0 and 1. A document longer than the context
   * is scored by its best window (node-llama-cpp's `maxChunk` overflow handling).
   */
  async rank(query: string, documents: string[], call: EngineCallOptions = {}): Promise<number[]> {
    const ranking = this.rankingContext;
    if (!ranking) throw new QuireError('model_unavailable', 'No reranker model is loaded.');
    const scores: number[] = [];
    // One at a time, so a cancelled call stops between documents.
    for (const document of documents) {
      throwIfAborted(call.signal);
      scores.push(await ranking.rank(query, document, { onOverflow: { type: 'maxChunk' } }));
    }
    return scores;
  }

  get loaded(): boolean {
    return this.model !== null;
  }

  async chat(request: HostChatRequest, call: EngineCallOptions = {}): Promise<HostChatResult> {
    const model = this.requireModel();
    throwIfAborted(call.signal);
    const grammar = request.jsonSchema ? await this.grammarFor(request.jsonSchema) : undefined;
    const banHighBytes = request.banHighByteTokens ?? grammar !== undefined;
    const slot = await this.acquireSlot(call.signal);
    let outputTokens = 0;
    try {
      const response = await slot.chat.generateResponse(toChatHistory(request.messages), {
        ...(grammar ? { grammar } : {}),
        ...(banHighBytes ? { tokenBias: this.highByteTokenBias(model) } : {}),
        temperature: request.temperature ?? 0,
        ...(request.maxTokens === undefined ? {} : { maxTokens: request.maxTokens }),
        ...(call.signal ? { signal: call.signal } : {}),
        onToken: (tokens) => void (outputTokens += tokens.length),
        ...(call.onToken ? { onTextChunk: call.onToken } : {}),
      });
      return { text: response.response, outputTokens, stopReason: response.metadata.stopReason };
    } catch (error) {
      // A half-evaluated sequence would be reused by the next call: start it clean.
      await slot.sequence.clearHistory().catch(() => undefined);
      if (call.signal?.aborted) throw new QuireError('cancelled', 'Generation cancelled.');
      throw new QuireError(
        'model_failed',
        `Generation failed with ${this.options?.modelPath}: ${describe(error)}`,
      );
    } finally {
      this.releaseSlot(slot);
    }
  }

  async embed(texts: string[], call: EngineCallOptions = {}): Promise<Float32Array[]> {
    const model = this.requireModel();
    const embedding = await this.getEmbeddingContext(model);
    // getEmbeddingFor adds BOS/EOS and needs one spare position: longer texts would make it throw,
    // and the head of a chunk carries most of its meaning.
    const maxTokens = this.embeddingContextSize(model) - EMBEDDING_RESERVED_TOKENS;
    const vectors: Float32Array[] = [];
    for (const text of texts) {
      throwIfAborted(call.signal);
      const tokens: Token[] = model.tokenize(text).slice(0, maxTokens);
      // An empty text has no tokens to pool; a zero vector keeps one vector per text.
      if (tokens.length === 0) {
        vectors.push(new Float32Array(model.embeddingVectorSize));
        continue;
      }
      const result = await embedding.getEmbeddingFor(tokens);
      vectors.push(Float32Array.from(result.vector));
    }
    return vectors;
  }

  async unload(): Promise<void> {
    const embedding = this.embeddingContext;
    this.embeddingContext = null;
    this.grammars.clear();
    this.highByteBias = null;
    for (const slot of this.slots) slot.chat.dispose({ disposeSequence: true });
    this.slots = [];
    await (await embedding?.catch(() => null))?.dispose();
    await this.rankingContext?.dispose();
    this.rankingContext = null;
    await this.context?.dispose();
    this.context = null;
    await this.model?.dispose();
    this.model = null;
  }

  async dispose(): Promise<void> {
    await this.unload();
    await this.llama?.dispose();
    this.llama = null;
  }

  private requireModel(): LlamaModel {
    if (!this.model) throw new QuireError('model_unavailable', 'No model is loaded.');
    return this.model;
  }

  private getEmbeddingContext(model: LlamaModel): Promise<LlamaEmbeddingContext> {
    this.embeddingContext ??= model.createEmbeddingContext({
      contextSize: this.embeddingContextSize(model),
      ...(this.options?.threads === undefined ? {} : { threads: this.options.threads }),
    });
    return this.embeddingContext;
  }

  private embeddingContextSize(model: LlamaModel): number {
    return Math.min(
      this.options?.embeddingContextSize ?? DEFAULT_EMBEDDING_CONTEXT_SIZE,
      model.trainContextSize,
    );
  }

  private grammarFor(schema: Record<string, unknown>): Promise<LlamaGrammar> {
    const key = JSON.stringify(schema);
    let grammar = this.grammars.get(key);
    if (!grammar) {
      const llama = this.llama!;
      grammar = Promise.resolve()
        .then(() =>
          llama.createGrammarForJsonSchema(schema as Parameters<Llama['createGrammarForJsonSchema']>[0]),
        )
        .catch((error: unknown) => {
          this.grammars.delete(key);
          throw new QuireError(
            'invalid_input',
            `The JSON schema cannot be turned into a grammar: ${describe(error)}`,
          );
        });
      if (this.grammars.size >= GRAMMAR_CACHE_LIMIT) this.grammars.delete(this.grammars.keys().next().value!);
      this.grammars.set(key, grammar);
    }
    return grammar;
  }

  private highByteTokenBias(model: LlamaModel): TokenBias {
    if (this.highByteBias) return this.highByteBias;
    const bias = new TokenBias(model.tokenizer);
    const vocabulary = model.fileInfo.metadata.tokenizer?.ggml?.tokens ?? [];
    vocabulary.forEach((piece, token) => {
      if (HIGH_BYTE_TOKEN.test(piece)) bias.set(token as Token, 'never');
    });
    this.highByteBias = bias;
    return bias;
  }

  private async acquireSlot(signal: AbortSignal | undefined): Promise<SequenceSlot> {
    for (;;) {
      const free = this.slots.find((slot) => !slot.busy);
      if (free) {
        free.busy = true;
        return free;
      }
      if (this.slots.length === 0) throw new QuireError('model_unavailable', 'The model was unloaded.');
      await new Promise<void>((resolve) => this.slotWaiters.push(resolve));
      throwIfAborted(signal);
    }
  }

  private releaseSlot(slot: SequenceSlot): void {
    slot.busy = false;
    this.slotWaiters.shift()?.();
  }
}

function toChatHistory(messages: HostChatRequest['messages']): ChatHistoryItem[] {
  const history: ChatHistoryItem[] = messages.map((message): ChatHistoryItem => {
    if (message.role === 'system') return { type: 'system', text: message.content };
    if (message.role === 'user') return { type: 'user', text: message.content };
    return { type: 'model', response: [message.content] };
  });
  // generateResponse continues the last model turn, so a fresh answer needs an empty one.
  if (history.at(-1)?.type !== 'model') history.push({ type: 'model', response: [] });
  return history;
}

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new QuireError('cancelled', 'Generation cancelled.');
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
