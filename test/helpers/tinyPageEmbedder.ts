import { writeFile } from 'node:fs/promises';
import onnxProto, { type onnx as OnnxTypes } from 'onnx-proto';
import { SeededRandom } from '../../src/core/common/seededRandom';
import { EMBEDDED_FILES_KEY, type PageEmbedderFiles } from '../../src/core/models/onnx/pageEmbedderFiles';

/*
 * A tiny ONNX page embedder with ColModernVBERT's interface, written with onnx-proto: inputs
 * `input_ids` [batch, tokens] (int64), `attention_mask` [batch, tokens] (int64) and `pixel_values`
 * [batch, tiles, 3, height, width] (float), output [batch, tokens, 128]. Random weights: each token's
 * vector is its embedding plus a projection of the image's per-tile mean colours, L2-normalised and
 * masked, as the real model's head does. Its tokenizer (byte-level BPE with the model's special
 * tokens) and its processor settings travel inside the file as metadata, so one file is a whole model.
 */

export const TINY_PAGE_EMBEDDER = {
  dimensions: 128,
  imageSeqLen: 64,
  tileSize: 512,
  longestEdge: 2048,
} as const;

export interface TinyPageEmbedderOptions {
  /** Seeds the weights: the same seed gives a byte-identical file. Defaults to 1. */
  seed?: number;
  /** Leaves the embedded tokenizer and settings out (a model that needs its files beside it). */
  withoutEmbeddedFiles?: boolean;
}

// onnx-proto is CommonJS: its namespace arrives as the default export under ES modules.
const { onnx } = onnxProto;

const FLOAT = onnx.TensorProto.DataType.FLOAT;
const INT64 = onnx.TensorProto.DataType.INT64;

/** GPT-2's reversible map from bytes to printable characters, which byte-level BPE vocabularies use. */
function byteLevelAlphabet(): string[] {
  const printable: number[] = [];
  for (let b = 33; b <= 126; b++) printable.push(b);
  for (let b = 161; b <= 172; b++) printable.push(b);
  for (let b = 174; b <= 255; b++) printable.push(b);
  const chars = new Array<string>(256);
  let extra = 0;
  for (let b = 0; b < 256; b++) {
    chars[b] = String.fromCodePoint(printable.includes(b) ? b : 256 + extra++);
  }
  return chars;
}

/** The special tokens ColModernVBERT's prompts use, tile positions up to a 6 x 6 grid included. */
function specialTokens(): string[] {
  const tokens = [
    '<pad>',
    '<|begin_of_text|>',
    '<end_of_utterance>',
    '<image>',
    '<fake_token_around_image>',
    '<global-img>',
  ];
  for (let row = 1; row <= 6; row++)
    for (let col = 1; col <= 6; col++) tokens.push(`<row_${row}_col_${col}>`);
  return tokens;
}

export function tinyPageEmbedderFiles(): Omit<PageEmbedderFiles, 'modelPath'> {
  const alphabet = byteLevelAlphabet();
  const specials = specialTokens();
  const vocab: Record<string, number> = {};
  specials.forEach((token, id) => (vocab[token] = id));
  alphabet.forEach((char, i) => (vocab[char] = specials.length + i));
  const tokenizer = {
    version: '1.0',
    truncation: null,
    padding: {
      strategy: 'BatchLongest',
      direction: 'Left',
      pad_to_multiple_of: null,
      pad_id: 0,
      pad_type_id: 0,
      pad_token: '<pad>',
    },
    added_tokens: specials.map((content, id) => ({
      id,
      content,
      single_word: false,
      lstrip: false,
      rstrip: false,
      normalized: false,
      special: true,
    })),
    normalizer: null,
    pre_tokenizer: { type: 'ByteLevel', add_prefix_space: false, trim_offsets: true, use_regex: true },
    post_processor: null,
    decoder: { type: 'ByteLevel', add_prefix_space: true, trim_offsets: true, use_regex: true },
    model: {
      type: 'BPE',
      dropout: null,
      unk_token: null,
      continuing_subword_prefix: null,
      end_of_word_suffix: null,
      fuse_unk: false,
      byte_fallback: false,
      ignore_merges: false,
      vocab,
      merges: [],
    },
  };
  return {
    tokenizer,
    tokenizerConfig: { model_max_length: 8192, pad_token: '<pad>', padding_side: 'left' },
    preprocessor: {
      image_processor_type: 'Idefics3ImageProcessor',
      do_convert_rgb: true,
      do_resize: true,
      size: { longest_edge: TINY_PAGE_EMBEDDER.longestEdge },
      resample: 1,
      do_image_splitting: true,
      max_image_size: { longest_edge: TINY_PAGE_EMBEDDER.tileSize },
      do_rescale: true,
      rescale_factor: 1 / 255,
      do_normalize: true,
      image_mean: [0.5, 0.5, 0.5],
      image_std: [0.5, 0.5, 0.5],
    },
    processor: { image_seq_len: TINY_PAGE_EMBEDDER.imageSeqLen },
    config: { pad_token_id: 0, vision_config: { image_size: TINY_PAGE_EMBEDDER.tileSize } },
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

function int64Tensor(name: string, values: number[]): OnnxTypes.ITensorProto {
  const data = new BigInt64Array(values.map(BigInt));
  return { name, dims: [values.length], dataType: INT64, rawData: new Uint8Array(data.buffer) };
}

function node(
  opType: string,
  input: string[],
  output: string[],
  attribute: OnnxTypes.IAttributeProto[] = [],
) {
  return { opType, input, output, name: output[0], attribute };
}

const ints = (name: string, values: number[]): OnnxTypes.IAttributeProto => ({
  name,
  type: onnx.AttributeProto.AttributeType.INTS,
  ints: values,
});
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

/** The model file's bytes; byte-identical for the same options. */
export function buildTinyPageEmbedder(options: TinyPageEmbedderOptions = {}): Uint8Array {
  const random = new SeededRandom(options.seed ?? 1);
  const files = tinyPageEmbedderFiles();
  const vocabSize = specialTokens().length + 256;
  const d = TINY_PAGE_EMBEDDER.dimensions;
  const graph: OnnxTypes.IGraphProto = {
    name: 'tiny_page_embedder',
    initializer: [
      floatTensor('token_embedding', [vocabSize, d], random, 1),
      floatTensor('colour_projection', [3, d], random, 2),
      floatTensor('mix', [d, d], random, 1 / Math.sqrt(d)),
      int64Tensor('last_axis', [2]),
    ],
    node: [
      node('Gather', ['token_embedding', 'input_ids'], ['tokens'], [int('axis', 0)]),
      // Mean colour of every tile, projected, then the strongest response over the tiles.
      node('ReduceMean', ['pixel_values'], ['tile_colours'], [ints('axes', [3, 4]), int('keepdims', 0)]),
      node('MatMul', ['tile_colours', 'colour_projection'], ['tile_features']),
      node('ReduceMax', ['tile_features'], ['image_feature'], [ints('axes', [1]), int('keepdims', 1)]),
      node('Add', ['tokens', 'image_feature'], ['mixed_in']),
      node('MatMul', ['mixed_in', 'mix'], ['mixed']),
      node('Tanh', ['mixed'], ['hidden']),
      node('ReduceL2', ['hidden'], ['norms'], [ints('axes', [2]), int('keepdims', 1)]),
      node('Div', ['hidden', 'norms'], ['unit']),
      node('Cast', ['attention_mask'], ['mask_float'], [int('to', FLOAT)]),
      node('Unsqueeze', ['mask_float', 'last_axis'], ['mask']),
      node('Mul', ['unit', 'mask'], ['embeddings']),
    ],
    input: [
      valueInfo('input_ids', INT64, ['batch', 'tokens']),
      valueInfo('attention_mask', INT64, ['batch', 'tokens']),
      valueInfo('pixel_values', FLOAT, ['batch', 'tiles', 3, 'height', 'width']),
    ],
    output: [valueInfo('embeddings', FLOAT, ['batch', 'tokens', d])],
  };
  const model: OnnxTypes.IModelProto = {
    irVersion: 8,
    opsetImport: [{ domain: '', version: 13 }],
    producerName: 'quire-tiny-page-embedder',
    graph,
    metadataProps: options.withoutEmbeddedFiles
      ? []
      : [{ key: EMBEDDED_FILES_KEY, value: JSON.stringify(files) }],
  };
  return onnx.ModelProto.encode(model).finish();
}

/** Writes the tiny model and returns its size in bytes. */
export async function writeTinyPageEmbedder(
  path: string,
  options: TinyPageEmbedderOptions = {},
): Promise<number> {
  const bytes = buildTinyPageEmbedder(options);
  await writeFile(path, bytes);
  return bytes.length;
}
