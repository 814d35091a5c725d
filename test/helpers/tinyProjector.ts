import { writeFile } from 'node:fs/promises';
import { SeededRandom } from '../../src/core/common/seededRandom';
import { buildGguf, TINY_MODEL_SHAPE, ValueType, type MetadataValue, type Tensor } from './tinyModel';

/*
 * A tiny vision projector (mmproj) GGUF written byte by byte: llama.cpp's CLIP architecture with an
 * MLP projector (the LLaVA-1.5 kind), random F32 weights, a 28 px image cut into 14 px patches, and an
 * output the size of the tiny language model's embeddings, so the two load together as a vision model.
 */

export const TINY_PROJECTOR_SHAPE = {
  imageSize: 28,
  patchSize: 14,
  embeddingLength: 32,
  headCount: 2,
  feedForwardLength: 64,
  blockCount: 2,
} as const;

export interface TinyProjectorOptions {
  /** Size of the projector's output; the tiny model's embedding length unless a test wants a mismatch. */
  outputLength?: number;
}

export async function writeTinyProjector(path: string, seed = 1): Promise<number> {
  const bytes = buildTinyProjector(seed);
  await writeFile(path, bytes);
  return bytes.length;
}

export function buildTinyProjector(seed = 1, options: TinyProjectorOptions = {}): Buffer {
  const shape = TINY_PROJECTOR_SHAPE;
  const textEmbd = options.outputLength ?? TINY_MODEL_SHAPE.embeddingLength;
  const u32 = (value: number): MetadataValue => ({ type: ValueType.Uint32, value });
  const f32s = (value: number[]): MetadataValue => ({
    type: ValueType.Array,
    itemType: ValueType.Float32,
    value,
  });
  const metadata: Array<[string, MetadataValue]> = [
    ['general.architecture', { type: ValueType.String, value: 'clip' }],
    ['general.name', { type: ValueType.String, value: 'quire-tiny-projector-test' }],
    ['general.alignment', u32(32)],
    ['general.file_type', u32(0)],
    ['clip.has_text_encoder', { type: ValueType.Bool, value: false }],
    ['clip.has_vision_encoder', { type: ValueType.Bool, value: true }],
    ['clip.has_llava_projector', { type: ValueType.Bool, value: true }],
    ['clip.projector_type', { type: ValueType.String, value: 'mlp' }],
    ['clip.use_gelu', { type: ValueType.Bool, value: true }],
    ['clip.vision.image_size', u32(shape.imageSize)],
    ['clip.vision.patch_size', u32(shape.patchSize)],
    ['clip.vision.embedding_length', u32(shape.embeddingLength)],
    ['clip.vision.feed_forward_length', u32(shape.feedForwardLength)],
    ['clip.vision.projection_dim', u32(textEmbd)],
    ['clip.vision.attention.head_count', u32(shape.headCount)],
    ['clip.vision.attention.layer_norm_epsilon', { type: ValueType.Float32, value: 1e-5 }],
    ['clip.vision.block_count', u32(shape.blockCount)],
    ['clip.vision.image_mean', f32s([0.5, 0.5, 0.5])],
    ['clip.vision.image_std', f32s([0.5, 0.5, 0.5])],
  ];
  const random = new SeededRandom(seed);
  const randomTensor = (name: string, dims: number[]): Tensor => {
    const size = dims.reduce((a, b) => a * b, 1);
    const scale = 1 / Math.sqrt(dims[0]!);
    const data = new Float32Array(size);
    for (let i = 0; i < size; i++) data[i] = (random.next() * 2 - 1) * scale;
    return { name, dims, data };
  };
  const filled = (name: string, length: number, value: number): Tensor => ({
    name,
    dims: [length],
    data: new Float32Array(length).fill(value),
  });
  const embd = shape.embeddingLength;
  const ff = shape.feedForwardLength;
  const patches = (shape.imageSize / shape.patchSize) ** 2;
  const tensors: Tensor[] = [
    randomTensor('v.patch_embd.weight', [shape.patchSize, shape.patchSize, 3, embd]),
    randomTensor('v.position_embd.weight', [embd, patches + 1]),
    randomTensor('v.class_embd', [embd]),
    filled('v.pre_ln.weight', embd, 1),
    filled('v.pre_ln.bias', embd, 0),
  ];
  for (let block = 0; block < shape.blockCount; block++) {
    const p = `v.blk.${block}.`;
    for (const name of ['attn_q', 'attn_k', 'attn_v', 'attn_out'])
      tensors.push(randomTensor(`${p}${name}.weight`, [embd, embd]), filled(`${p}${name}.bias`, embd, 0));
    tensors.push(
      filled(`${p}ln1.weight`, embd, 1),
      filled(`${p}ln1.bias`, embd, 0),
      filled(`${p}ln2.weight`, embd, 1),
      filled(`${p}ln2.bias`, embd, 0),
      randomTensor(`${p}ffn_up.weight`, [embd, ff]),
      filled(`${p}ffn_up.bias`, ff, 0),
      randomTensor(`${p}ffn_down.weight`, [ff, embd]),
      filled(`${p}ffn_down.bias`, embd, 0),
    );
  }
  tensors.push(
    randomTensor('mm.0.weight', [embd, textEmbd]),
    filled('mm.0.bias', textEmbd, 0),
    randomTensor('mm.2.weight', [textEmbd, textEmbd]),
    filled('mm.2.bias', textEmbd, 0),
  );
  return buildGguf(metadata, tensors);
}
