import { writeFile } from 'node:fs/promises';
import { SeededRandom } from '../../src/core/common/seededRandom';

/*
 * A tiny llama-architecture GGUF (v3) written byte by byte: random F32 weights, a real tokenizer
 * (byte fallback, ChatML control tokens and template) and mean pooling, so node-llama-cpp can load it,
 * generate under a grammar and embed text without any downloaded weights.
 *
 * The `reranker` kind is shaped like a Qwen3-Reranker conversion instead: the qwen3 architecture
 * (per-head q/k norms), `rank` pooling and a two-label classification head (`cls.output.weight`,
 * labels yes/no), which is what node-llama-cpp's ranking context requires of a model.
 */

export const TINY_MODEL_SHAPE = {
  embeddingLength: 64,
  blockCount: 2,
  headCount: 4,
  feedForwardLength: 128,
  contextLength: 2048,
} as const;

export interface TinyGgufOptions {
  /** Seeds the weights: the same seed gives a byte-identical file. Defaults to 1. */
  seed?: number;
  /** Metadata keys to leave out, to produce models llama.cpp rejects (e.g. `llama.feed_forward_length`). */
  omitMetadataKeys?: string[];
  /** `chat` (default): the llama model above; `reranker`: a qwen3 cross-encoder with a rank head. */
  kind?: 'chat' | 'reranker';
}

/** The architecture and head of each kind of tiny model. */
interface ModelShape {
  architecture: 'llama' | 'qwen3';
  name: string;
  /** llama.cpp's pooling types: 1 mean, 4 rank. */
  poolingType: 1 | 4;
  /** Labels of the classification head; none for a generative model. */
  classifierLabels: string[];
}

const SHAPES: Record<NonNullable<TinyGgufOptions['kind']>, ModelShape> = {
  chat: { architecture: 'llama', name: 'quire-tiny-test', poolingType: 1, classifierLabels: [] },
  reranker: {
    architecture: 'qwen3',
    name: 'quire-tiny-reranker-test',
    poolingType: 4,
    classifierLabels: ['yes', 'no'],
  },
};

const GGUF_MAGIC = 'GGUF';
const GGUF_VERSION = 3;
const ALIGNMENT = 32;
const GGML_TYPE_F32 = 0;

export const enum ValueType {
  Uint32 = 4,
  Int32 = 5,
  Float32 = 6,
  Bool = 7,
  String = 8,
  Array = 9,
}

export type MetadataValue =
  | { type: ValueType.Uint32 | ValueType.Int32 | ValueType.Float32; value: number }
  | { type: ValueType.Bool; value: boolean }
  | { type: ValueType.String; value: string }
  | { type: ValueType.Array; itemType: ValueType.String; value: string[] }
  | { type: ValueType.Array; itemType: ValueType.Int32 | ValueType.Float32; value: number[] };

const TOKEN_TYPE = { normal: 1, unknown: 2, control: 3, byte: 6 } as const;

const CHATML_TEMPLATE =
  "{% for message in messages %}{{'<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' + '\\n'}}{% endfor %}" +
  "{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}";

interface Vocabulary {
  tokens: string[];
  types: number[];
  scores: number[];
  ids: { unknown: number; bos: number; eos: number; imStart: number; imEnd: number };
}

function buildVocabulary(): Vocabulary {
  const tokens: string[] = [];
  const types: number[] = [];
  const scores: number[] = [];
  const add = (token: string, type: number, score: number): number => {
    tokens.push(token);
    types.push(type);
    scores.push(score);
    return tokens.length - 1;
  };
  const unknown = add('<unk>', TOKEN_TYPE.unknown, 0);
  const bos = add('<s>', TOKEN_TYPE.control, 0);
  const eos = add('</s>', TOKEN_TYPE.control, 0);
  const imStart = add('<|im_start|>', TOKEN_TYPE.control, 0);
  const imEnd = add('<|im_end|>', TOKEN_TYPE.control, 0);
  for (let byte = 0; byte < 256; byte++) {
    add(`<0x${byte.toString(16).toUpperCase().padStart(2, '0')}>`, TOKEN_TYPE.byte, 0);
  }
  // Printable ASCII as single-character pieces; SentencePiece writes a space as U+2581.
  for (let code = 0x20; code < 0x7f; code++) {
    add(code === 0x20 ? '\u2581' : String.fromCharCode(code), TOKEN_TYPE.normal, -1000 - code);
  }
  return { tokens, types, scores, ids: { unknown, bos, eos, imStart, imEnd } };
}

export interface Tensor {
  name: string;
  /** Innermost dimension first, as GGUF lists them. */
  dims: number[];
  data: Float32Array;
}

function buildTensors(vocabularySize: number, seed: number, shape: ModelShape): Tensor[] {
  const { embeddingLength: embd, blockCount, feedForwardLength: ff, headCount } = TINY_MODEL_SHAPE;
  const headSize = embd / headCount;
  const random = seededRandom(seed);
  const randomTensor = (name: string, dims: number[]): Tensor => {
    const size = dims.reduce((a, b) => a * b, 1);
    const scale = 1 / Math.sqrt(dims[0]!);
    const data = new Float32Array(size);
    for (let i = 0; i < size; i++) data[i] = (random() * 2 - 1) * scale;
    return { name, dims, data };
  };
  const onesTensor = (name: string, length: number): Tensor => ({
    name,
    dims: [length],
    data: new Float32Array(length).fill(1),
  });
  const tensors = [
    randomTensor('token_embd.weight', [embd, vocabularySize]),
    onesTensor('output_norm.weight', embd),
  ];
  for (let block = 0; block < blockCount; block++) {
    const prefix = `blk.${block}.`;
    tensors.push(
      onesTensor(`${prefix}attn_norm.weight`, embd),
      randomTensor(`${prefix}attn_q.weight`, [embd, embd]),
      randomTensor(`${prefix}attn_k.weight`, [embd, embd]),
      randomTensor(`${prefix}attn_v.weight`, [embd, embd]),
      randomTensor(`${prefix}attn_output.weight`, [embd, embd]),
      onesTensor(`${prefix}ffn_norm.weight`, embd),
      randomTensor(`${prefix}ffn_gate.weight`, [embd, ff]),
      randomTensor(`${prefix}ffn_up.weight`, [embd, ff]),
      randomTensor(`${prefix}ffn_down.weight`, [ff, embd]),
    );
    if (shape.architecture === 'qwen3') {
      tensors.push(onesTensor(`${prefix}attn_q_norm.weight`, headSize));
      tensors.push(onesTensor(`${prefix}attn_k_norm.weight`, headSize));
    }
  }
  if (shape.classifierLabels.length > 0) {
    tensors.push(randomTensor('cls.output.weight', [embd, shape.classifierLabels.length]));
  }
  return tensors;
}

function buildMetadata(
  vocabulary: Vocabulary,
  omit: ReadonlySet<string>,
  model: ModelShape,
): Array<[string, MetadataValue]> {
  const shape = TINY_MODEL_SHAPE;
  const arch = model.architecture;
  const u32 = (value: number): MetadataValue => ({ type: ValueType.Uint32, value });
  const entries: Array<[string, MetadataValue]> = [
    ['general.architecture', { type: ValueType.String, value: arch }],
    ['general.name', { type: ValueType.String, value: model.name }],
    ['general.alignment', u32(ALIGNMENT)],
    ['general.file_type', u32(0)],
    [`${arch}.context_length`, u32(shape.contextLength)],
    [`${arch}.embedding_length`, u32(shape.embeddingLength)],
    [`${arch}.block_count`, u32(shape.blockCount)],
    [`${arch}.feed_forward_length`, u32(shape.feedForwardLength)],
    [`${arch}.attention.head_count`, u32(shape.headCount)],
    [`${arch}.attention.head_count_kv`, u32(shape.headCount)],
    [`${arch}.rope.dimension_count`, u32(shape.embeddingLength / shape.headCount)],
    [`${arch}.attention.layer_norm_rms_epsilon`, { type: ValueType.Float32, value: 1e-5 }],
    [`${arch}.pooling_type`, u32(model.poolingType)],
    ...(model.classifierLabels.length > 0
      ? [
          [
            `${arch}.classifier.output_labels`,
            { type: ValueType.Array, itemType: ValueType.String, value: model.classifierLabels },
          ] as [string, MetadataValue],
        ]
      : []),
    ['tokenizer.ggml.model', { type: ValueType.String, value: 'llama' }],
    [
      'tokenizer.ggml.tokens',
      { type: ValueType.Array, itemType: ValueType.String, value: vocabulary.tokens },
    ],
    [
      'tokenizer.ggml.token_type',
      { type: ValueType.Array, itemType: ValueType.Int32, value: vocabulary.types },
    ],
    [
      'tokenizer.ggml.scores',
      { type: ValueType.Array, itemType: ValueType.Float32, value: vocabulary.scores },
    ],
    ['tokenizer.ggml.unknown_token_id', u32(vocabulary.ids.unknown)],
    ['tokenizer.ggml.bos_token_id', u32(vocabulary.ids.bos)],
    ['tokenizer.ggml.eos_token_id', u32(vocabulary.ids.imEnd)],
    ['tokenizer.ggml.add_bos_token', { type: ValueType.Bool, value: true }],
    ['tokenizer.ggml.add_eos_token', { type: ValueType.Bool, value: false }],
    ['tokenizer.chat_template', { type: ValueType.String, value: CHATML_TEMPLATE }],
  ];
  return entries.filter(([key]) => !omit.has(key));
}

/** Appends little-endian values to a growing list of chunks. */
class ByteWriter {
  private readonly chunks: Buffer[] = [];
  length = 0;

  private push(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.length += chunk.length;
  }
  raw(bytes: Buffer): void {
    this.push(bytes);
  }
  u32(value: number): void {
    const b = Buffer.alloc(4);
    b.writeUInt32LE(value);
    this.push(b);
  }
  i32(value: number): void {
    const b = Buffer.alloc(4);
    b.writeInt32LE(value);
    this.push(b);
  }
  f32(value: number): void {
    const b = Buffer.alloc(4);
    b.writeFloatLE(value);
    this.push(b);
  }
  u64(value: number): void {
    const b = Buffer.alloc(8);
    b.writeBigUInt64LE(BigInt(value));
    this.push(b);
  }
  string(value: string): void {
    const bytes = Buffer.from(value, 'utf8');
    this.u64(bytes.length);
    this.push(bytes);
  }
  padTo(alignment: number): void {
    const padding = (alignment - (this.length % alignment)) % alignment;
    if (padding > 0) this.push(Buffer.alloc(padding));
  }
  toBuffer(): Buffer {
    return Buffer.concat(this.chunks, this.length);
  }
}

function writeValue(out: ByteWriter, entry: MetadataValue): void {
  out.u32(entry.type);
  switch (entry.type) {
    case ValueType.Uint32:
      return out.u32(entry.value);
    case ValueType.Int32:
      return out.i32(entry.value);
    case ValueType.Float32:
      return out.f32(entry.value);
    case ValueType.Bool:
      return out.raw(Buffer.from([entry.value ? 1 : 0]));
    case ValueType.String:
      return out.string(entry.value);
    case ValueType.Array: {
      out.u32(entry.itemType);
      out.u64(entry.value.length);
      if (entry.itemType === ValueType.String) for (const item of entry.value) out.string(item);
      else if (entry.itemType === ValueType.Int32) for (const item of entry.value) out.i32(item);
      else for (const item of entry.value) out.f32(item);
      return;
    }
  }
}

/** The tiny model as bytes. */
export function buildTinyGguf(options: TinyGgufOptions = {}): Buffer {
  const shape = SHAPES[options.kind ?? 'chat'];
  const vocabulary = buildVocabulary();
  const metadata = buildMetadata(vocabulary, new Set(options.omitMetadataKeys ?? []), shape);
  const tensors = buildTensors(vocabulary.tokens.length, options.seed ?? 1, shape);
  return buildGguf(metadata, tensors);
}

/** Any GGUF v3 file from its metadata and F32 tensors (dims innermost first). */
export function buildGguf(metadata: Array<[string, MetadataValue]>, tensors: Tensor[]): Buffer {
  const out = new ByteWriter();
  out.raw(Buffer.from(GGUF_MAGIC, 'ascii'));
  out.u32(GGUF_VERSION);
  out.u64(tensors.length);
  out.u64(metadata.length);
  for (const [key, value] of metadata) {
    out.string(key);
    writeValue(out, value);
  }

  let dataOffset = 0;
  for (const tensor of tensors) {
    out.string(tensor.name);
    out.u32(tensor.dims.length);
    for (const dim of tensor.dims) out.u64(dim);
    out.u32(GGML_TYPE_F32);
    out.u64(dataOffset);
    dataOffset += Math.ceil(tensor.data.byteLength / ALIGNMENT) * ALIGNMENT;
  }
  out.padTo(ALIGNMENT);
  for (const tensor of tensors) {
    out.raw(Buffer.from(tensor.data.buffer, tensor.data.byteOffset, tensor.data.byteLength));
    out.padTo(ALIGNMENT);
  }
  return out.toBuffer();
}

/** Writes the tiny model to `path` and returns its size in bytes. */
export async function writeTinyGguf(path: string, options: TinyGgufOptions = {}): Promise<number> {
  const bytes = buildTinyGguf(options);
  await writeFile(path, bytes);
  return bytes.length;
}

/** Uniform numbers in [0, 1) from a seed. */
function seededRandom(seed: number): () => number {
  const generator = new SeededRandom(seed);
  return () => generator.next();
}
