/*
 * A BERT-family sentence embedder on ONNX Runtime, inside the text embedder's host process: texts are
 * prefixed as the family asks, tokenized with the export's tokenizer.json, cut to the model's
 * longest input, run in batches padded to their longest text, pooled and scaled to unit length.
 */
import { readFile } from 'node:fs/promises';
import { Tokenizer } from '@huggingface/tokenizers';
import * as ort from 'onnxruntime-node';
import { QuireError } from '../../../shared/errors';
import { readTextEmbedderFiles, type TextEmbedderFamily, type TextEmbedderRecipe } from './textEmbedderFiles';

export interface OnnxTextEmbedderLoadOptions {
  /** The model's folder, or its `.onnx` file with tokenizer.json beside it. */
  modelPath: string;
  /** CPU threads for one run; 0 lets ONNX Runtime decide. Defaults to 0. */
  threads?: number;
  /** Most texts in one run. Defaults to TEXTS_PER_RUN. */
  textsPerRun?: number;
}

export interface OnnxTextEmbedderInfo {
  /** The `.onnx` file that was loaded. */
  modelFile: string;
  family: TextEmbedderFamily;
  dimensions: number;
}

export type TextKind = 'query' | 'passage';

/** `count x dimensions`, row-major, each row of length 1. */
export interface TextVectors {
  values: Float32Array;
  count: number;
}

/**
 * Padded tokens one run may hold. Short texts (queries, page lines) share runs; a chunk of more than
 * half this runs alone. On 2 cores, runs of up to 64 chunks of ~300 tokens were no faster than one
 * chunk per run, held 35-100 MB more at their peak (bge-small-en-v1.5, 2,048-4,096 tokens per run),
 * and int8 exports quantize activations over the whole run, so a chunk's vector moved (cosine
 * 0.992-0.998) with whatever it was batched beside.
 */
const TOKENS_PER_RUN = 512;
const TEXTS_PER_RUN = 64;

export class TextEmbedderEngine {
  private session: ort.InferenceSession | null = null;
  private tokenizer: Tokenizer | null = null;
  private recipe: TextEmbedderRecipe | null = null;
  private padId = 0;
  private dimensions = 0;
  private textsPerRun = TEXTS_PER_RUN;

  async load(options: OnnxTextEmbedderLoadOptions): Promise<OnnxTextEmbedderInfo> {
    const files = await readTextEmbedderFiles(options.modelPath);
    const tokenizerJson = JSON.parse(await readFile(files.tokenizerPath, 'utf8')) as Record<string, unknown>;
    try {
      this.tokenizer = new Tokenizer(tokenizerJson, {});
    } catch (error) {
      throw new QuireError(
        'model_failed',
        `${files.tokenizerPath} is not a tokenizer Quire can read: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    this.padId = this.tokenizer.token_to_id('[PAD]') ?? 0;
    this.textsPerRun = Math.max(1, options.textsPerRun ?? TEXTS_PER_RUN);
    this.recipe = files.recipe;
    try {
      this.session = await ort.InferenceSession.create(files.modelPath, {
        executionProviders: ['cpu'],
        intraOpNumThreads: options.threads ?? 0,
        interOpNumThreads: 1,
        graphOptimizationLevel: 'all',
        // Without ONNX Runtime's arena the memory a large batch took goes back when it is done.
        enableCpuMemArena: false,
      });
    } catch (error) {
      throw new QuireError(
        'model_failed',
        `ONNX Runtime could not load ${files.modelPath}: ${error instanceof Error ? error.message : String(error)}`,
        { modelPath: files.modelPath },
      );
    }
    const inputs = new Set(this.session.inputNames);
    const missing = ['input_ids', 'attention_mask'].filter((name) => !inputs.has(name));
    if (missing.length > 0) {
      throw new QuireError(
        'model_failed',
        `${files.modelPath} is not a sentence embedder: it lacks the input(s) ${missing.join(', ')}.`,
        { modelPath: files.modelPath },
      );
    }
    // One short text proves the model runs here and tells the vector size.
    const probe = await this.embed(['probe'], 'passage');
    this.dimensions = probe.values.length;
    return { modelFile: files.modelPath, family: files.recipe.family, dimensions: this.dimensions };
  }

  async embed(texts: string[], kind: TextKind, signal?: AbortSignal): Promise<TextVectors> {
    const { session, tokenizer, recipe } = this.ready();
    const prefix = kind === 'query' ? recipe.queryPrefix : recipe.passagePrefix;
    const sequences = texts.map((text) => this.ids(tokenizer, prefix + text, recipe.maxTokens));
    // Texts of like length go together, so little of each run is padding.
    const order = sequences.map((_, i) => i).sort((a, b) => sequences[a]!.length - sequences[b]!.length);
    const pooled: Float32Array[] = new Array<Float32Array>(texts.length);
    let start = 0;
    while (start < order.length) {
      signal?.throwIfAborted();
      let end = start + 1;
      while (
        end < order.length &&
        end - start < this.textsPerRun &&
        (end - start + 1) * sequences[order[end]!]!.length <= TOKENS_PER_RUN
      )
        end++;
      const group = order.slice(start, end);
      const vectors = await this.run(
        session,
        group.map((i) => sequences[i]!),
        recipe,
      );
      group.forEach((index, row) => (pooled[index] = vectors[row]!));
      start = end;
    }
    signal?.throwIfAborted();
    const dimensions = pooled[0]?.length ?? this.dimensions;
    const values = new Float32Array(texts.length * dimensions);
    pooled.forEach((vector, row) => values.set(vector, row * dimensions));
    return { values, count: texts.length };
  }

  async dispose(): Promise<void> {
    const session = this.session;
    this.session = null;
    this.tokenizer = null;
    this.recipe = null;
    await session?.release().catch(() => undefined);
  }

  /** Token ids with the tokenizer's own special tokens; a long text keeps its start and its closing token. */
  private ids(tokenizer: Tokenizer, text: string, maxTokens: number): number[] {
    const ids = tokenizer.encode(text).ids;
    if (ids.length <= maxTokens) return ids;
    return [...ids.slice(0, maxTokens - 1), ids[ids.length - 1]!];
  }

  private async run(
    session: ort.InferenceSession,
    sequences: number[][],
    recipe: TextEmbedderRecipe,
  ): Promise<Float32Array[]> {
    const batch = sequences.length;
    const length = Math.max(1, ...sequences.map((ids) => ids.length));
    const inputIds = new BigInt64Array(batch * length).fill(BigInt(this.padId));
    const mask = new BigInt64Array(batch * length);
    sequences.forEach((ids, row) =>
      ids.forEach((id, i) => {
        inputIds[row * length + i] = BigInt(id);
        mask[row * length + i] = 1n;
      }),
    );
    const feeds: Record<string, ort.Tensor> = {
      input_ids: new ort.Tensor('int64', inputIds, [batch, length]),
      attention_mask: new ort.Tensor('int64', mask, [batch, length]),
    };
    // One sentence, one segment: every token type is 0.
    if (session.inputNames.includes('token_type_ids'))
      feeds.token_type_ids = new ort.Tensor('int64', new BigInt64Array(batch * length), [batch, length]);
    const results = await session.run(feeds);
    try {
      const name = session.outputNames.includes('last_hidden_state')
        ? 'last_hidden_state'
        : session.outputNames[0]!;
      const output = results[name];
      if (!output || output.type !== 'float32' || output.dims.length !== 3) {
        throw new QuireError(
          'model_failed',
          `The text embedder's output ${name} is not a [batch, tokens, dimensions] float tensor.`,
        );
      }
      const [rows, tokens, dimensions] = output.dims.map(Number) as [number, number, number];
      if (rows !== batch || tokens !== length) {
        throw new QuireError(
          'model_failed',
          `The text embedder returned ${rows}x${tokens} vectors for ${batch}x${length} tokens.`,
        );
      }
      return pool(output.data as Float32Array, mask, batch, length, dimensions, recipe.pooling);
    } finally {
      for (const value of Object.values(results)) value.dispose();
    }
  }

  private ready(): { session: ort.InferenceSession; tokenizer: Tokenizer; recipe: TextEmbedderRecipe } {
    if (!this.session || !this.tokenizer || !this.recipe) {
      throw new QuireError('model_unavailable', 'The text embedder is not loaded.');
    }
    return { session: this.session, tokenizer: this.tokenizer, recipe: this.recipe };
  }
}

/** One unit-length vector per row: the first token's, or the mean over the tokens the mask keeps. */
export function pool(
  hidden: Float32Array,
  mask: BigInt64Array,
  batch: number,
  tokens: number,
  dimensions: number,
  pooling: 'cls' | 'mean',
): Float32Array[] {
  const vectors: Float32Array[] = [];
  for (let b = 0; b < batch; b++) {
    const vector = new Float32Array(dimensions);
    if (pooling === 'cls') {
      vector.set(hidden.subarray(b * tokens * dimensions, b * tokens * dimensions + dimensions));
    } else {
      let kept = 0;
      for (let t = 0; t < tokens; t++) {
        if (mask[b * tokens + t] === 0n) continue;
        kept++;
        const from = (b * tokens + t) * dimensions;
        for (let k = 0; k < dimensions; k++) vector[k]! += hidden[from + k]!;
      }
      for (let k = 0; k < dimensions; k++) vector[k]! /= Math.max(1, kept);
    }
    let norm = 0;
    for (let k = 0; k < dimensions; k++) norm += vector[k]! * vector[k]!;
    const scale = norm > 0 ? 1 / Math.sqrt(norm) : 0;
    for (let k = 0; k < dimensions; k++) vector[k]! *= scale;
    vectors.push(vector);
  }
  return vectors;
}
