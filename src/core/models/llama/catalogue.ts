/*
 * Recommended GGUF models per role and per RAM tier, as data. URIs are in node-llama-cpp's
 * `hf:<user>/<repo>:<quant>` form (resolveModelFile / createModelDownloader understand them).
 * Sizes are the published file sizes, rounded; the memory planner re-reads the real numbers from the
 * file (describeGguf) once it is on disk. KV cache per token assumes llama.cpp's default F16 cache:
 * 2 (K and V) x layers x KV heads x head size x 2 bytes.
 */
import { ModelRole } from '../../../shared/domain/models';
import type { ModelLoadRequest, QuantOption } from '../../memory/planFit';

/** `rerank`: a cross-encoder that re-orders search results (node-llama-cpp's ranking context). */
export type CatalogueRole = 'decide' | 'answer' | 'embed' | 'see' | 'rerank';
export type RamTier = 'small' | 'medium' | 'large';

export interface CatalogueModel {
  id: string;
  label: string;
  roles: CatalogueRole[];
  tier: RamTier;
  uri: string;
  quant: string;
  weightsBytes: number;
  /** The context Quire asks for by default. */
  contextSize: number;
  trainContextSize: number;
  kvCacheBytesPerToken: number;
  /** For embedding models. */
  dimensions?: number;
  /** Lighter files of the same model, heaviest first: the planner's fallback. */
  lighterQuants: QuantOption[];
  /**
   * Whether node-llama-cpp can serve it inside Quire. It has no image input yet, so vision models
   * run on llama-server (with the projector) or Ollama.
   */
  inProcess: boolean;
  /** The vision projector a server needs beside the weights. */
  projectorUri?: string;
}

const GB = 1e9;
const MB = 1e6;

/** RAM up to which a tier applies; `large` is everything above medium. */
export const RAM_TIER_LIMITS: Record<Exclude<RamTier, 'large'>, number> = {
  small: 8 * 1024 ** 3,
  medium: 24 * 1024 ** 3,
};

export function ramTierFor(totalBytes: number): RamTier {
  if (totalBytes <= RAM_TIER_LIMITS.small) return 'small';
  if (totalBytes <= RAM_TIER_LIMITS.medium) return 'medium';
  return 'large';
}

const kvPerToken = (layers: number, kvHeads: number, headSize: number) => 2 * layers * kvHeads * headSize * 2;

export const CATALOGUE: readonly CatalogueModel[] = [
  {
    id: 'qwen3-1.7b',
    label: 'Qwen3 1.7B',
    roles: ['decide', 'answer'],
    tier: 'small',
    uri: 'hf:unsloth/Qwen3-1.7B-GGUF:Q4_K_M',
    quant: 'Q4_K_M',
    weightsBytes: 1.11 * GB,
    contextSize: 8192,
    trainContextSize: 40960,
    kvCacheBytesPerToken: kvPerToken(28, 8, 128),
    lighterQuants: [{ quant: 'Q3_K_M', weightsBytes: 0.94 * GB, uri: 'hf:unsloth/Qwen3-1.7B-GGUF:Q3_K_M' }],
    inProcess: true,
  },
  {
    id: 'qwen3-4b',
    label: 'Qwen3 4B',
    roles: ['decide', 'answer'],
    tier: 'small',
    uri: 'hf:unsloth/Qwen3-4B-GGUF:Q4_K_M',
    quant: 'Q4_K_M',
    weightsBytes: 2.5 * GB,
    contextSize: 8192,
    trainContextSize: 40960,
    kvCacheBytesPerToken: kvPerToken(36, 8, 128),
    lighterQuants: [{ quant: 'Q3_K_M', weightsBytes: 2.08 * GB, uri: 'hf:unsloth/Qwen3-4B-GGUF:Q3_K_M' }],
    inProcess: true,
  },
  {
    id: 'qwen3-8b',
    label: 'Qwen3 8B',
    roles: ['decide', 'answer'],
    tier: 'medium',
    uri: 'hf:unsloth/Qwen3-8B-GGUF:Q4_K_M',
    quant: 'Q4_K_M',
    weightsBytes: 5.03 * GB,
    contextSize: 16384,
    trainContextSize: 40960,
    kvCacheBytesPerToken: kvPerToken(36, 8, 128),
    lighterQuants: [{ quant: 'Q3_K_M', weightsBytes: 4.12 * GB, uri: 'hf:unsloth/Qwen3-8B-GGUF:Q3_K_M' }],
    inProcess: true,
  },
  {
    id: 'qwen3-14b',
    label: 'Qwen3 14B',
    roles: ['decide', 'answer'],
    tier: 'medium',
    uri: 'hf:unsloth/Qwen3-14B-GGUF:Q4_K_M',
    quant: 'Q4_K_M',
    weightsBytes: 9.0 * GB,
    contextSize: 16384,
    trainContextSize: 40960,
    kvCacheBytesPerToken: kvPerToken(40, 8, 128),
    lighterQuants: [{ quant: 'Q3_K_M', weightsBytes: 7.32 * GB, uri: 'hf:unsloth/Qwen3-14B-GGUF:Q3_K_M' }],
    inProcess: true,
  },
  {
    id: 'qwen3-30b-a3b',
    label: 'Qwen3 30B-A3B',
    roles: ['decide', 'answer'],
    tier: 'large',
    uri: 'hf:unsloth/Qwen3-30B-A3B-GGUF:Q4_K_M',
    quant: 'Q4_K_M',
    weightsBytes: 18.6 * GB,
    contextSize: 32768,
    trainContextSize: 40960,
    kvCacheBytesPerToken: kvPerToken(48, 4, 128),
    lighterQuants: [
      { quant: 'Q3_K_M', weightsBytes: 14.7 * GB, uri: 'hf:unsloth/Qwen3-30B-A3B-GGUF:Q3_K_M' },
    ],
    inProcess: true,
  },
  {
    id: 'qwen3-32b',
    label: 'Qwen3 32B',
    roles: ['answer'],
    tier: 'large',
    uri: 'hf:unsloth/Qwen3-32B-GGUF:Q4_K_M',
    quant: 'Q4_K_M',
    weightsBytes: 19.8 * GB,
    contextSize: 32768,
    trainContextSize: 40960,
    kvCacheBytesPerToken: kvPerToken(64, 8, 128),
    lighterQuants: [{ quant: 'Q3_K_M', weightsBytes: 16.0 * GB, uri: 'hf:unsloth/Qwen3-32B-GGUF:Q3_K_M' }],
    inProcess: true,
  },
  {
    id: 'qwen3-embedding-0.6b',
    label: 'Qwen3 Embedding 0.6B',
    roles: ['embed'],
    tier: 'small',
    uri: 'hf:Qwen/Qwen3-Embedding-0.6B-GGUF:Q8_0',
    quant: 'Q8_0',
    weightsBytes: 639 * MB,
    contextSize: 2048,
    trainContextSize: 32768,
    kvCacheBytesPerToken: kvPerToken(28, 8, 128),
    dimensions: 1024,
    lighterQuants: [],
    inProcess: true,
  },
  {
    id: 'qwen3-embedding-4b',
    label: 'Qwen3 Embedding 4B',
    roles: ['embed'],
    tier: 'large',
    uri: 'hf:Qwen/Qwen3-Embedding-4B-GGUF:Q4_K_M',
    quant: 'Q4_K_M',
    weightsBytes: 2.5 * GB,
    contextSize: 2048,
    trainContextSize: 32768,
    kvCacheBytesPerToken: kvPerToken(36, 8, 128),
    dimensions: 2560,
    lighterQuants: [],
    inProcess: true,
  },
  {
    // XLM-RoBERTa large with a classification head: 24 layers, 16 heads of 64. An encoder, so the
    // per-token figure is its activations rather than a cache kept between calls.
    id: 'bge-reranker-v2-m3',
    label: 'BGE Reranker v2 M3',
    roles: ['rerank'],
    tier: 'small',
    uri: 'hf:gpustack/bge-reranker-v2-m3-GGUF:Q8_0',
    quant: 'Q8_0',
    weightsBytes: 636 * MB,
    contextSize: 1024,
    trainContextSize: 8192,
    kvCacheBytesPerToken: kvPerToken(24, 16, 64),
    lighterQuants: [],
    inProcess: true,
  },
  {
    id: 'qwen2.5-vl-3b',
    label: 'Qwen2.5-VL 3B',
    roles: ['see'],
    tier: 'small',
    uri: 'hf:ggml-org/Qwen2.5-VL-3B-Instruct-GGUF:Q4_K_M',
    projectorUri: 'hf:ggml-org/Qwen2.5-VL-3B-Instruct-GGUF/mmproj-Qwen2.5-VL-3B-Instruct-Q8_0.gguf',
    quant: 'Q4_K_M',
    weightsBytes: 1.93 * GB,
    contextSize: 8192,
    trainContextSize: 128000,
    kvCacheBytesPerToken: kvPerToken(36, 2, 128),
    lighterQuants: [],
    inProcess: false,
  },
  {
    id: 'qwen2.5-vl-7b',
    label: 'Qwen2.5-VL 7B',
    roles: ['see'],
    tier: 'medium',
    uri: 'hf:ggml-org/Qwen2.5-VL-7B-Instruct-GGUF:Q4_K_M',
    projectorUri: 'hf:ggml-org/Qwen2.5-VL-7B-Instruct-GGUF/mmproj-Qwen2.5-VL-7B-Instruct-Q8_0.gguf',
    quant: 'Q4_K_M',
    weightsBytes: 4.68 * GB,
    contextSize: 8192,
    trainContextSize: 128000,
    kvCacheBytesPerToken: kvPerToken(28, 4, 128),
    lighterQuants: [],
    inProcess: false,
  },
];

const TIER_ORDER: readonly RamTier[] = ['small', 'medium', 'large'];

/**
 * The strongest catalogue model for `role` at or below the machine's tier: a machine in a higher tier
 * gets its own tier's pick, and a smaller one if its tier has none for the role.
 */
export function recommendedModel(role: CatalogueRole, totalBytes: number): CatalogueModel | null {
  const limit = TIER_ORDER.indexOf(ramTierFor(totalBytes));
  for (let tier = limit; tier >= 0; tier--) {
    const candidates = CATALOGUE.filter(
      (model) => model.tier === TIER_ORDER[tier] && model.roles.includes(role),
    );
    const strongest = candidates.sort((a, b) => b.weightsBytes - a.weightsBytes)[0];
    if (strongest) return strongest;
  }
  return null;
}

/** What the memory planner needs to decide whether a catalogue model fits. */
export function toLoadRequest(model: CatalogueModel, contextSize = model.contextSize): ModelLoadRequest {
  return {
    id: model.id,
    label: model.label,
    roles: modelRoles(model),
    quant: model.quant,
    weightsBytes: model.weightsBytes,
    contextSize,
    contextBytesPerToken: model.kvCacheBytesPerToken,
    lighterQuants: model.lighterQuants,
  };
}

/** The model roles a catalogue model serves; the reranker serves none (search uses it once on disk). */
export function modelRoles(model: CatalogueModel): ModelRole[] {
  return model.roles.flatMap((role) => {
    const parsed = ModelRole.safeParse(role);
    return parsed.success ? [parsed.data] : [];
  });
}
