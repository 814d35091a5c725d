/*
 * What a GGUF model holds resident in its model host process, beyond the tensors in its file: measured
 * on Linux x64 with node-llama-cpp 3.21.1 (its llama.cpp v0.4.0 release) from /proc smaps of a process
 * loading and running models as the host does, and llama.cpp's load log.
 * Where a part depends on the machine it is decided per backend, and the unsure cases err high.
 */
import type { GgmlType, GgufTensorInfo } from 'node-llama-cpp';
import type { LlamaGpuSetting } from './protocol';

/** Where llama.cpp runs the model's layers, as far as memory goes. */
export type LlamaBackend = 'cpu-x64' | 'cpu-arm64' | 'metal';

/**
 * The backend a model loaded with `gpu` runs on. On Apple Silicon node-llama-cpp offloads every layer
 * to Metal. A CUDA or Vulkan GPU elsewhere is taken as the CPU: its weights and context then count as
 * RAM too, which errs on the safe side.
 */
export function llamaBackend(
  gpu: LlamaGpuSetting = 'auto',
  platform: NodeJS.Platform = process.platform,
  arch: string = process.arch,
): LlamaBackend {
  if (platform === 'darwin' && arch === 'arm64' && gpu !== false) return 'metal';
  return arch === 'arm64' ? 'cpu-arm64' : 'cpu-x64';
}

/** Node, node-llama-cpp's native addon and the host's own code before a model loads (measured: 96 MB). */
export const HOST_PROCESS_BYTES = 100e6;

/**
 * Per tokenizer entry (token or BPE merge): llama.cpp builds its vocabulary tables twice, for the model
 * and for the weightless copy node-llama-cpp keeps to simulate loads, plus the parsed header in
 * JavaScript (measured 630-780 bytes on SmolLM2, Gemma 3 and Qwen2.5 tokenizers).
 */
export const TOKENIZER_ENTRY_BYTES = 800;

interface RepackedType {
  blockBytes: number;
  blockElements: number;
  /** Rows must come in multiples of this for the interleaved layout. */
  rowMultiple: number;
}

/**
 * node-llama-cpp's GgmlType numbers (GGML's type ids) for the types below, written out: importing its
 * enum would load all of node-llama-cpp (hundreds of modules) into every process that plans memory,
 * `quire search` among them. `satisfies` fails to compile if a number differs from the enum's.
 */
const GGML = {
  Q4_0: 2,
  Q8_0: 8,
  Q2_K: 10,
  Q4_K: 12,
  Q5_K: 13,
  Q6_K: 14,
  IQ4_NL: 20,
  MXFP4: 39,
} as const satisfies { [K in keyof typeof GgmlType]?: (typeof GgmlType)[K] };

const q4_0 = { blockBytes: 18, blockElements: 32 };
const q4_K = { blockBytes: 144, blockElements: 256 };

/**
 * The weight types llama.cpp's CPU backend copies into an interleaved layout at load
 * (`ggml_repack_get_optimal_repack_type`); the mapped originals stay resident beside the copy (clean
 * file pages the kernel may drop under pressure, so counting both errs high).
 * x64 assumes AVX2 (every x64 CPU since 2013); Q2_K is repacked only with AVX-512 and is counted anyway.
 * arm64 assumes dot-product instructions (every Apple Silicon chip and current ARM server).
 */
const REPACKED_TYPES: Record<Exclude<LlamaBackend, 'metal'>, ReadonlyMap<GgmlType, RepackedType>> = {
  'cpu-x64': new Map([
    [GGML.Q4_0, { ...q4_0, rowMultiple: 8 }],
    [GGML.Q4_K, { ...q4_K, rowMultiple: 8 }],
    [GGML.IQ4_NL, { blockBytes: 18, blockElements: 32, rowMultiple: 8 }],
    [GGML.MXFP4, { blockBytes: 17, blockElements: 32, rowMultiple: 8 }],
    [GGML.Q2_K, { blockBytes: 84, blockElements: 256, rowMultiple: 8 }],
  ]),
  'cpu-arm64': new Map([
    [GGML.Q4_0, { ...q4_0, rowMultiple: 4 }],
    [GGML.Q4_K, { ...q4_K, rowMultiple: 8 }],
    [GGML.Q5_K, { blockBytes: 176, blockElements: 256, rowMultiple: 8 }],
    [GGML.Q6_K, { blockBytes: 210, blockElements: 256, rowMultiple: 8 }],
    [GGML.IQ4_NL, { blockBytes: 18, blockElements: 32, rowMultiple: 4 }],
    [GGML.MXFP4, { blockBytes: 17, blockElements: 32, rowMultiple: 4 }],
    [GGML.Q8_0, { blockBytes: 34, blockElements: 32, rowMultiple: 4 }],
  ]),
};

/** Tables read a row per token (GET_ROWS), which the repacked layout cannot serve: they stay mapped. */
const LOOKUP_TABLE = /(^|\.)(token_embd|per_layer_token_embd|position_embd|token_types)\.weight$/;

/**
 * Bytes of the repacked copy llama.cpp's CPU backend makes of the matrices it multiplies (2-D weights,
 * 3-D expert stacks). Metal reads the mapped file directly and makes no copy.
 */
export function repackedWeightsBytes(tensors: readonly GgufTensorInfo[], backend: LlamaBackend): number {
  if (backend === 'metal') return 0;
  const types = REPACKED_TYPES[backend];
  let bytes = 0;
  for (const tensor of tensors) {
    const type = types.get(tensor.ggmlType);
    const dims = tensor.dimensions.map(Number);
    if (!type || dims.length < 2 || dims.length > 3 || LOOKUP_TABLE.test(tensor.name)) continue;
    if (dims[1]! % type.rowMultiple !== 0) continue;
    const elements = dims.reduce((a, b) => a * b, 1);
    bytes += (elements / type.blockElements) * type.blockBytes;
  }
  return Math.round(bytes);
}

/** The architecture facts a context's working memory follows from. */
export interface ContextShape {
  embeddingLength: number;
  /** The widest feed-forward layer, or the experts a token uses in a mixture-of-experts model. */
  feedForwardLength: number;
  headCount: number;
  /** Query, key and value widths of one token, summed over heads. */
  attentionWidth: number;
  vocabularySize: number;
  slidingWindow: boolean;
  /** node-llama-cpp asks for flash attention ("auto"); llama.cpp grants it when the model allows. */
  flashAttention: boolean;
}

/** node-llama-cpp's default batch: llama.cpp evaluates up to this many prompt tokens at once. */
export function contextBatchSize(contextSize: number): number {
  return Math.min(contextSize, 512);
}

/**
 * Working memory of a context besides its KV cache. llama.cpp reserves its compute buffer for the worst
 * case, logits for every token of a batch (n_vocab x batch x 4 bytes); on the CPU that buffer is plain
 * memory and only the pages a real batch touches become resident: the activations of one batch and
 * a single logits row (measured on Linux x64). On Metal the buffer is GPU memory kept resident for the
 * GPU; not measured here, so the whole reservation counts there.
 */
export function contextWorkingBytes(shape: ContextShape, contextSize: number, backend: LlamaBackend): number {
  const batch = contextBatchSize(contextSize);
  const f32 = 4;
  // Feed-forward gate, up and their product; residual, norm and attention output; Q, K, V.
  const activations =
    batch * f32 * (3 * shape.feedForwardLength + 3 * shape.embeddingLength + shape.attentionWidth);
  // One mask row per batch token over the cache; sliding-window models keep a second mask.
  const masks = batch * contextSize * f32 * (shape.slidingWindow ? 2 : 1);
  // Without flash attention the attention scores of the whole batch are materialised.
  const scores = shape.flashAttention ? 0 : batch * contextSize * shape.headCount * f32;
  // The last token's logits and the sampler's candidates (token id, logit, probability).
  const sampling = shape.vocabularySize * (f32 + 12);
  const reservedLogits = backend === 'metal' ? shape.vocabularySize * batch * f32 : 0;
  return activations + masks + scores + sampling + reservedLogits;
}
