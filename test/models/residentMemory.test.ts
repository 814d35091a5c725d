import { join } from 'node:path';
import { GgmlType, type GgufTensorInfo } from 'node-llama-cpp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { contextBytes, describeGguf } from '../../src/core/models/llama/describeGguf';
import {
  contextWorkingBytes,
  HOST_PROCESS_BYTES,
  llamaBackend,
  repackedWeightsBytes,
  TOKENIZER_ENTRY_BYTES,
} from '../../src/core/models/llama/residentMemory';
import { tempDir } from '../helpers/shared';
import { TINY_MODEL_SHAPE, writeTinyGguf } from '../helpers/tinyModel';

/** The tiny model's tokenizer: 5 control and unknown tokens, 256 bytes, 95 printable characters. */
const TINY_VOCABULARY = 5 + 256 + 95;

/** A tensor as readGgufFileInfo lists it; only name, type and dimensions matter here. */
function tensor(name: string, ggmlType: GgmlType, dimensions: number[]): GgufTensorInfo {
  return { name, ggmlType, dimensions, offset: 0, fileOffset: 0, filePart: 1 };
}

describe('the backend a local model runs on', () => {
  it('is Metal on Apple Silicon unless the GPU is off, and the CPU of its family elsewhere', () => {
    expect(llamaBackend('auto', 'darwin', 'arm64')).toBe('metal');
    expect(llamaBackend(false, 'darwin', 'arm64')).toBe('cpu-arm64');
    expect(llamaBackend('auto', 'linux', 'x64')).toBe('cpu-x64');
    expect(llamaBackend('auto', 'linux', 'arm64')).toBe('cpu-arm64');
    expect(llamaBackend('auto', 'darwin', 'x64')).toBe('cpu-x64');
  });
});

describe('weights the CPU backend repacks', () => {
  const ffnUp = tensor('blk.0.ffn_up.weight', GgmlType.Q4_K, [1536, 8960]);
  const ffnDown = tensor('blk.0.ffn_down.weight', GgmlType.Q6_K, [8960, 1536]);
  const embeddings = tensor('token_embd.weight', GgmlType.Q4_K, [1536, 151936]);
  const oddRows = tensor('blk.0.attn_k.weight', GgmlType.Q4_0, [1536, 12]);
  const norm = tensor('blk.0.attn_norm.weight', GgmlType.F32, [1536]);
  const all = [ffnUp, ffnDown, embeddings, oddRows, norm];
  const q4K = (1536 * 8960 * 144) / 256;

  it('counts Q4_K matrices on x64 but not Q6_K, embedding tables or rows not in eights', () => {
    expect(repackedWeightsBytes(all, 'cpu-x64')).toBe(q4K);
  });

  it('counts Q6_K and Q4_0 in fours on arm64 as well', () => {
    expect(repackedWeightsBytes(all, 'cpu-arm64')).toBe(
      q4K + (8960 * 1536 * 210) / 256 + (1536 * 12 * 18) / 32,
    );
  });

  it('counts nothing on Metal, which reads the mapped file', () => {
    expect(repackedWeightsBytes(all, 'metal')).toBe(0);
  });
});

describe('the tiny GGUF described as the host holds it', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let modelPath: string;
  beforeAll(async () => {
    dir = await tempDir('quire-resident-');
    modelPath = join(dir.path, 'tiny.gguf');
    await writeTinyGguf(modelPath);
  });
  afterAll(() => dir.cleanup());

  const { embeddingLength: embd, feedForwardLength: ff, blockCount, headCount } = TINY_MODEL_SHAPE;

  it('holds its mapped F32 tensors, no repacked copy, its tokenizer tables and the host process', async () => {
    const description = await describeGguf(modelPath, { backend: 'cpu-x64' });
    const perBlock = 2 * embd + 4 * embd * embd + 3 * embd * ff;
    const mapped = 4 * (embd * TINY_VOCABULARY + embd + blockCount * perBlock);
    expect(description.loaded).toEqual({
      mappedBytes: mapped,
      repackedBytes: 0,
      tokenizerBytes: TINY_VOCABULARY * TOKENIZER_ENTRY_BYTES,
      hostProcessBytes: HOST_PROCESS_BYTES,
    });
    expect(description.weightsBytes).toBe(
      mapped + TINY_VOCABULARY * TOKENIZER_ENTRY_BYTES + HOST_PROCESS_BYTES,
    );
  });

  it('grows its context by the f16 KV cache plus a mask row per batch token', async () => {
    const description = await describeGguf(modelPath, { backend: 'cpu-x64' });
    const kvPerToken = blockCount * 2 * embd * 2;
    const maskPerToken = 512 * 4;
    expect(description.contextBytesPerToken).toBe(kvPerToken + maskPerToken);
  });

  it('touches one batch of activations on the CPU; on Metal the logits of a whole batch count too', async () => {
    const headSize = embd / headCount;
    const shape = {
      embeddingLength: embd,
      feedForwardLength: ff,
      headCount,
      attentionWidth: 3 * headCount * headSize,
      vocabularySize: TINY_VOCABULARY,
      slidingWindow: false,
      flashAttention: true,
    };
    const activations = 512 * 4 * (3 * ff + 3 * embd + 3 * embd);
    const masks = 512 * 2048 * 4;
    const sampling = TINY_VOCABULARY * 16;
    expect(contextWorkingBytes(shape, 2048, 'cpu-x64')).toBe(activations + masks + sampling);
    expect(contextWorkingBytes(shape, 2048, 'metal')).toBe(
      activations + masks + sampling + TINY_VOCABULARY * 512 * 4,
    );
    // Without flash attention the batch's attention scores are materialised per head.
    expect(contextWorkingBytes({ ...shape, flashAttention: false }, 2048, 'cpu-x64')).toBe(
      activations + masks + sampling + 512 * 2048 * headCount * 4,
    );

    const cpu = await describeGguf(modelPath, { backend: 'cpu-x64' });
    const metal = await describeGguf(modelPath, { backend: 'metal' });
    expect(contextBytes(metal, 2048) - contextBytes(cpu, 2048)).toBe(TINY_VOCABULARY * 512 * 4);
  });
});
