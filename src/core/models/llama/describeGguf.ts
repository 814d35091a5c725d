/*
 * What a GGUF file will cost in memory, read from its header alone. The file passes ggufHeader's checks
 * first (counts and lengths against its size, every tensor inside it): node-llama-cpp's reader trusts
 * the header and aborts the process on one that lies. readGgufFileInfo and the synchronous GgufInsights
 * estimates are plain JavaScript past that point (the `V2` estimates simulate a load in native code and
 * are avoided for that reason). The figures are what the model host process holds resident (see
 * residentMemory.ts).
 */
import type { GgufFileInfo, GgufFileType, GgufInsights } from 'node-llama-cpp';
import { QuireError } from '../../../shared/errors';
import { checkedGguf } from '../ggufHeader';
import {
  contextBatchSize,
  contextWorkingBytes,
  HOST_PROCESS_BYTES,
  llamaBackend,
  repackedWeightsBytes,
  TOKENIZER_ENTRY_BYTES,
  type ContextShape,
  type LlamaBackend,
} from './residentMemory';

export interface GgufDescription {
  path: string;
  fileBytes: number;
  architecture: string;
  name: string | null;
  /** The weights' quantization as llama.cpp names it, e.g. `MOSTLY_Q4_K_M`, when the file says. */
  fileType: string | null;
  /** The backend the figures below are for. */
  backend: LlamaBackend;
  /** What the loaded model holds before any context: the sum of `loaded`. */
  weightsBytes: number;
  loaded: {
    /** The file's tensors, memory-mapped. */
    mappedBytes: number;
    /** The copy of the weights the CPU backend repacks (their mapped originals stay resident too). */
    repackedBytes: number;
    /** The tokenizer's tables. */
    tokenizerBytes: number;
    /** The host process itself. */
    hostProcessBytes: number;
  };
  trainContextSize: number;
  embeddingLength: number;
  layers: number;
  /**
   * Context memory = contextFixedBytes + contextBytesPerToken * contextSize (KV cache plus working
   * memory); exact from 2048 tokens up, on the high side below.
   */
  contextFixedBytes: number;
  contextBytesPerToken: number;
  /** Problems llama.cpp would also report about this file. */
  warnings: string[];
}

// Above a sliding window plus a batch (1280 tokens for Gemma 3) the context grows linearly.
const PROBE_CONTEXT_SMALL = 2048;
const PROBE_CONTEXT_LARGE = 4096;

export interface DescribeGgufOptions {
  /** Defaults to the backend node-llama-cpp picks here with the GPU allowed. */
  backend?: LlamaBackend;
}

export async function describeGguf(
  path: string,
  options: DescribeGgufOptions = {},
): Promise<GgufDescription> {
  const backend = options.backend ?? llamaBackend();
  const fileBytes = (await checkedGguf(path)).fileBytes;
  // Loaded on first use: hundreds of modules a process that never reads a model should not pay for.
  const { GgufFileType, GgufInsights, readGgufFileInfo } = await import('node-llama-cpp');
  let info: GgufFileInfo;
  try {
    info = await readGgufFileInfo(path, { sourceType: 'filesystem', logWarnings: false });
  } catch (error) {
    throw new QuireError('model_failed', `${path} is not a readable GGUF model: ${describe(error)}`, {
      path,
    });
  }
  try {
    const insights = await GgufInsights.from(info);
    const shape = contextShape(info, insights);
    const contextBytes = (contextSize: number) => {
      // Asked as an embedding context so the estimate leaves out logits for a whole batch: llama.cpp
      // now reserves one row per sequence (counted in contextWorkingBytes). What is left is the KV
      // cache, sized by node-llama-cpp from the architecture (sliding-window layers included).
      const kv = insights.estimateContextResourceRequirements({
        contextSize,
        modelGpuLayers: 0,
        batchSize: contextBatchSize(contextSize),
        isEmbeddingContext: true,
        includeGraphOverhead: false,
        flashAttention: shape.flashAttention,
      });
      return kv.cpuRam + kv.gpuVram + contextWorkingBytes(shape, contextSize, backend);
    };
    const small = contextBytes(PROBE_CONTEXT_SMALL);
    const perToken =
      (contextBytes(PROBE_CONTEXT_LARGE) - small) / (PROBE_CONTEXT_LARGE - PROBE_CONTEXT_SMALL);
    const general = info.metadata.general;
    const tokenizer = info.metadata.tokenizer?.ggml;
    const loaded = {
      mappedBytes: insights.modelSize,
      repackedBytes: repackedWeightsBytes(info.fullTensorInfo ?? [], backend),
      tokenizerBytes:
        ((tokenizer?.tokens?.length ?? 0) + (tokenizer?.merges?.length ?? 0)) * TOKENIZER_ENTRY_BYTES,
      hostProcessBytes: HOST_PROCESS_BYTES,
    };
    return {
      path,
      fileBytes,
      architecture: String(general?.architecture ?? 'unknown'),
      name: general?.name ?? null,
      fileType: general?.file_type === undefined ? null : fileTypeName(GgufFileType, general.file_type),
      backend,
      weightsBytes:
        loaded.mappedBytes + loaded.repackedBytes + loaded.tokenizerBytes + loaded.hostProcessBytes,
      loaded,
      trainContextSize: insights.trainContextSize ?? 0,
      embeddingLength: insights.embeddingVectorSize ?? 0,
      layers: insights.totalLayers,
      contextFixedBytes: Math.max(0, Math.round(small - perToken * PROBE_CONTEXT_SMALL)),
      contextBytesPerToken: Math.max(0, perToken),
      warnings: insights.getWarnings(path),
    };
  } catch (error) {
    throw new QuireError('model_failed', `${path} has GGUF metadata Quire cannot use: ${describe(error)}`, {
      path,
    });
  }
}

/** Memory a context of `contextSize` tokens takes for the described model. */
export function contextBytes(description: GgufDescription, contextSize: number): number {
  return Math.round(description.contextFixedBytes + description.contextBytesPerToken * contextSize);
}

/** The architecture facts the context's working memory follows from; per-layer lists count their widest layer. */
function contextShape(info: GgufFileInfo, insights: GgufInsights): ContextShape {
  const arch = info.architectureMetadata as Record<string, unknown> & {
    attention?: Record<string, unknown>;
  };
  const widest = (value: unknown): number =>
    typeof value === 'number' ? value : Array.isArray(value) ? Math.max(0, ...value.map(Number)) : 0;
  const embeddingLength = widest(arch.embedding_length);
  const headCount = widest(arch.attention?.head_count);
  const headCountKv = widest(arch.attention?.head_count_kv) || headCount;
  const headSize = headCount > 0 ? embeddingLength / headCount : 0;
  const keyLength = widest(arch.attention?.key_length) || headSize;
  const valueLength = widest(arch.attention?.value_length) || headSize;
  const experts = widest(arch.expert_feed_forward_length) * widest(arch.expert_used_count);
  return {
    embeddingLength,
    feedForwardLength: Math.max(widest(arch.feed_forward_length), experts),
    headCount,
    attentionWidth: headCount * keyLength + headCountKv * (keyLength + valueLength),
    vocabularySize: widest(arch.vocab_size) || (info.metadata.tokenizer?.ggml?.tokens?.length ?? 0),
    slidingWindow: insights.swaSize !== undefined,
    flashAttention: insights.flashAttentionSupported,
  };
}

function fileTypeName(names: typeof GgufFileType, fileType: GgufFileType): string {
  return names[fileType] ?? `type ${fileType}`;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
