import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import onnxProto, { type onnx as OnnxTypes } from 'onnx-proto';
import { SeededRandom } from '../../src/core/common/seededRandom';

/*
 * A tiny sentence embedder shaped like a BERT export, written with onnx-proto: inputs `input_ids`,
 * `attention_mask` and `token_type_ids` [batch, tokens] (int64), output `last_hidden_state`
 * [batch, tokens, 32]. Random weights: each token's vector is its embedding plus its position's and
 * its type's, plus the mean of the sentence's real tokens (the mask decides which), through one
 * layer. So padding changes nothing only when the mask is honoured, and the first token's vector
 * depends on every word, as a CLS token's does. Its tokenizer.json is a character-level WordPiece
 * with BERT's normalizer and special tokens.
 */

export const TINY_TEXT_EMBEDDER = { dimensions: 32, positions: 520 } as const;

// onnx-proto is CommonJS: its namespace arrives as the default export under ES modules.
const { onnx } = onnxProto;

const FLOAT = onnx.TensorProto.DataType.FLOAT;
const INT64 = onnx.TensorProto.DataType.INT64;

const SPECIALS = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]'];

function vocabulary(): Record<string, number> {
  const pieces: string[] = [...SPECIALS];
  const characters = 'abcdefghijklmnopqrstuvwxyz0123456789';
  for (const char of characters) pieces.push(char);
  for (const char of characters) pieces.push(`##${char}`);
  for (const char of '.,:;!?%\'"-()') pieces.push(char);
  return Object.fromEntries(pieces.map((piece, id) => [piece, id]));
}

export function tinyTokenizerJson(): Record<string, unknown> {
  const vocab = vocabulary();
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: SPECIALS.map((content) => ({
      id: vocab[content],
      content,
      single_word: false,
      lstrip: false,
      rstrip: false,
      normalized: false,
      special: true,
    })),
    normalizer: {
      type: 'BertNormalizer',
      clean_text: true,
      handle_chinese_chars: true,
      strip_accents: null,
      lowercase: true,
    },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: {
      type: 'TemplateProcessing',
      single: [
        { SpecialToken: { id: '[CLS]', type_id: 0 } },
        { Sequence: { id: 'A', type_id: 0 } },
        { SpecialToken: { id: '[SEP]', type_id: 0 } },
      ],
      pair: [
        { SpecialToken: { id: '[CLS]', type_id: 0 } },
        { Sequence: { id: 'A', type_id: 0 } },
        { SpecialToken: { id: '[SEP]', type_id: 0 } },
        { Sequence: { id: 'B', type_id: 1 } },
        { SpecialToken: { id: '[SEP]', type_id: 1 } },
      ],
      special_tokens: {
        '[CLS]': { id: '[CLS]', ids: [vocab['[CLS]']], tokens: ['[CLS]'] },
        '[SEP]': { id: '[SEP]', ids: [vocab['[SEP]']], tokens: ['[SEP]'] },
      },
    },
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: {
      type: 'WordPiece',
      unk_token: '[UNK]',
      continuing_subword_prefix: '##',
      max_input_chars_per_word: 100,
      vocab,
    },
  };
}

function floatTensor(
  name: string,
  dims: number[],
  random: SeededRandom,
  scale: number,
): OnnxTypes.ITensorProto {
  const values = new Float32Array(dims.reduce((a, b) => a * b, 1));
  for (let i = 0; i < values.length; i++) values[i] = random.gaussian() * scale;
  return { name, dims, dataType: FLOAT, rawData: new Uint8Array(values.buffer) };
}

function int64Tensor(name: string, values: number[], dims = [values.length]): OnnxTypes.ITensorProto {
  const data = new BigInt64Array(values.map(BigInt));
  return { name, dims, dataType: INT64, rawData: new Uint8Array(data.buffer) };
}

function node(
  opType: string,
  input: string[],
  output: string[],
  attribute: OnnxTypes.IAttributeProto[] = [],
) {
  return { opType, input, output, name: output[0], attribute };
}

const int = (name: string, value: number): OnnxTypes.IAttributeProto => ({
  name,
  type: onnx.AttributeProto.AttributeType.INT,
  i: value,
});

function valueInfo(name: string, elemType: number, dims: Array<string | number>): OnnxTypes.IValueInfoProto {
  return {
    name,
    type: {
      tensorType: {
        elemType,
        shape: { dim: dims.map((dim) => (typeof dim === 'string' ? { dimParam: dim } : { dimValue: dim })) },
      },
    },
  };
}

/** The model file's bytes; byte-identical for the same seed. */
export function buildTinyTextEmbedder(seed = 1): Uint8Array {
  const random = new SeededRandom(seed);
  const d = TINY_TEXT_EMBEDDER.dimensions;
  const vocabSize = Object.keys(vocabulary()).length;
  const graph: OnnxTypes.IGraphProto = {
    name: 'tiny_text_embedder',
    initializer: [
      floatTensor('word_embeddings', [vocabSize, d], random, 1),
      floatTensor('position_embeddings', [TINY_TEXT_EMBEDDER.positions, d], random, 0.5),
      floatTensor('type_embeddings', [2, d], random, 0.5),
      floatTensor('layer', [d, d], random, 1 / Math.sqrt(d)),
      int64Tensor('zero', [0], []),
      int64Tensor('one', [1], []),
      int64Tensor('token_axis', [1]),
      int64Tensor('last_axis', [2]),
    ],
    node: [
      node('Gather', ['word_embeddings', 'input_ids'], ['words'], [int('axis', 0)]),
      node('Gather', ['type_embeddings', 'token_type_ids'], ['types'], [int('axis', 0)]),
      node('Shape', ['input_ids'], ['shape']),
      node('Gather', ['shape', 'one'], ['length'], [int('axis', 0)]),
      node('Range', ['zero', 'length', 'one'], ['position_ids']),
      node('Gather', ['position_embeddings', 'position_ids'], ['positions'], [int('axis', 0)]),
      node('Add', ['words', 'types'], ['words_types']),
      node('Add', ['words_types', 'positions'], ['tokens']),
      // The mean of the real tokens, added to every token: the only place tokens see each other.
      node('Cast', ['attention_mask'], ['mask_float'], [int('to', FLOAT)]),
      node('Unsqueeze', ['mask_float', 'last_axis'], ['mask']),
      node('Mul', ['tokens', 'mask'], ['masked']),
      node('ReduceSum', ['masked', 'token_axis'], ['sum'], [int('keepdims', 1)]),
      node('ReduceSum', ['mask', 'token_axis'], ['count'], [int('keepdims', 1)]),
      node('Div', ['sum', 'count'], ['context']),
      node('Add', ['tokens', 'context'], ['contextual']),
      node('MatMul', ['contextual', 'layer'], ['projected']),
      node('Tanh', ['projected'], ['last_hidden_state']),
    ],
    input: [
      valueInfo('input_ids', INT64, ['batch', 'tokens']),
      valueInfo('attention_mask', INT64, ['batch', 'tokens']),
      valueInfo('token_type_ids', INT64, ['batch', 'tokens']),
    ],
    output: [valueInfo('last_hidden_state', FLOAT, ['batch', 'tokens', d])],
  };
  const model: OnnxTypes.IModelProto = {
    irVersion: 8,
    opsetImport: [{ domain: '', version: 13 }],
    producerName: 'quire-tiny-text-embedder',
    graph,
  };
  return onnx.ModelProto.encode(model).finish();
}

/** Writes `model.onnx` and `tokenizer.json` into `folder` (made if needed). */
export async function writeTinyTextEmbedder(folder: string, seed = 1): Promise<void> {
  await mkdir(folder, { recursive: true });
  await writeFile(join(folder, 'model.onnx'), buildTinyTextEmbedder(seed));
  await writeFile(join(folder, 'tokenizer.json'), JSON.stringify(tinyTokenizerJson()));
}
