/*
 * Crafted GGUF files that used to abort (an array claiming 2^40 items: node's fs binding asserts inside
 * node-llama-cpp's reader) or hang (tensor and key counts of 2^62) every command, and their kin. Each
 * must be named unusable by the header check without node-llama-cpp ever reading it; a hang would
 * show as this file's timeout. The good tiny model and the real weights, when fetched, must pass.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type * as NodeLlamaCpp from 'node-llama-cpp';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { scanModelsFolder, localModelFor } from '../../src/core/models/catalogue/modelsFolder';
import { ggufFileProblem, readGgufHeader, UnusableGgufError } from '../../src/core/models/ggufHeader';
import { describeGguf } from '../../src/core/models/llama/describeGguf';
import { ModelService } from '../../src/core/models/modelService';
import { QuireError } from '../../src/shared/errors';
import { readRealModels, realModelsSkipReason } from '../helpers/realModels';
import { tempDir } from '../helpers/shared';
import { buildGguf, buildTinyGguf, ValueType } from '../helpers/tinyModel';

// The real reader, watched: a crafted file must never reach it.
const reader = vi.hoisted(() => ({ calls: [] as string[] }));
vi.mock('node-llama-cpp', async (importOriginal) => {
  const actual = await importOriginal<typeof NodeLlamaCpp>();
  return {
    ...actual,
    readGgufFileInfo: (...args: Parameters<typeof actual.readGgufFileInfo>) => {
      reader.calls.push(String(args[0]));
      return actual.readGgufFileInfo(...args);
    },
  };
});

const TINY = buildTinyGguf();
/** Where the `tokenizer.ggml.tokens` array's u64 length sits: after its key, the value type and item type. */
function tokensLengthOffset(gguf: Buffer): number {
  const key = Buffer.from('tokenizer.ggml.tokens');
  return gguf.indexOf(key) + key.length + 4 + 4;
}

/** The files of the hostile-inputs check and their kin, by name. */
function craftedFiles(): Record<string, Buffer> {
  const hugeArray = Buffer.from(TINY);
  hugeArray.writeBigUInt64LE(1n << 40n, tokensLengthOffset(hugeArray));

  const hugeCounts = Buffer.alloc(88);
  hugeCounts.write('GGUF', 0, 'latin1');
  hugeCounts.writeUInt32LE(3, 4);
  hugeCounts.writeBigUInt64LE(1n << 62n, 8);
  hugeCounts.writeBigUInt64LE(1n << 62n, 16);

  // A key whose string claims more bytes than the file has left.
  const truncatedString = Buffer.alloc(64);
  truncatedString.write('GGUF', 0, 'latin1');
  truncatedString.writeUInt32LE(3, 4);
  truncatedString.writeBigUInt64LE(0n, 8);
  truncatedString.writeBigUInt64LE(1n, 16);
  truncatedString.writeBigUInt64LE(1000n, 24);

  // A vocabulary whose count fits the file but whose strings run past its end.
  const words = Array.from({ length: 2000 }, (_, i) => `token-number-${i}`);
  const vocabulary = buildGguf(
    [
      ['general.architecture', { type: ValueType.String, value: 'llama' }],
      ['tokenizer.ggml.tokens', { type: ValueType.Array, itemType: ValueType.String, value: words }],
    ],
    [{ name: 'a', dims: [4], data: new Float32Array(4) }],
  );
  const stringsPastEnd = vocabulary.subarray(0, tokensLengthOffset(vocabulary) + 8 + 20_000);

  const withTensor = () =>
    buildGguf(
      [['general.architecture', { type: ValueType.String, value: 'llama' }]],
      [{ name: 'weights', dims: [8, 8], data: new Float32Array(64) }],
    );
  // Two dimensions of 2^62: more elements than llama.cpp's int64 counts.
  const absurdDims = withTensor();
  const dimsAt = absurdDims.indexOf(Buffer.from('weights')) + 'weights'.length + 4;
  absurdDims.writeBigUInt64LE(1n << 62n, dimsAt);
  absurdDims.writeBigUInt64LE(1n << 62n, dimsAt + 8);
  // Nine dimensions where llama.cpp allows four.
  const nineDims = withTensor();
  nineDims.writeUInt32LE(9, dimsAt - 4);
  // Dimensions that fit but whose data lies far past the end of the file.
  const dataPastEnd = withTensor();
  dataPastEnd.writeBigUInt64LE(1n << 20n, dimsAt);

  const unknownType = Buffer.from(TINY);
  const typeAt = unknownType.indexOf(Buffer.from('general.architecture')) + 'general.architecture'.length;
  unknownType.writeUInt32LE(99, typeAt);

  // A key holding a terminal escape, with an unknown value type: the reason must not carry the escape.
  const escapeKey = withTensor();
  const keyAt = escapeKey.indexOf(Buffer.from('general.architecture'));
  escapeKey.write('evil\u001b[2Jarchitecture', keyAt, 'latin1');
  escapeKey.writeUInt32LE(99, keyAt + 'general.architecture'.length);

  const versionOne = Buffer.from(TINY);
  versionOne.writeUInt32LE(1, 4);

  return {
    'huge-array.gguf': hugeArray,
    'huge-counts.gguf': hugeCounts,
    'truncated-string.gguf': truncatedString,
    'strings-past-end.gguf': stringsPastEnd,
    'absurd-dims.gguf': absurdDims,
    'nine-dims.gguf': nineDims,
    'data-past-end.gguf': dataPastEnd,
    'unknown-type.gguf': unknownType,
    'escape-key.gguf': escapeKey,
    'version-one.gguf': versionOne,
    'not-gguf.gguf': Buffer.from('PK\u0003\u0004 a zip file, not a model'),
  };
}

const REASONS: Record<string, RegExp> = {
  'huge-array.gguf': /tokenizer\.ggml\.tokens array claims 1099511627776 items, more than the \d+ bytes left/,
  'huge-counts.gguf':
    /claims 4611686018427387904 tensors and 4611686018427387904 metadata entries, more than the 64 bytes/,
  'truncated-string.gguf': /metadata key 0 claims a string of 1000 bytes, more than the 32 bytes left/,
  'strings-past-end.gguf':
    /item \d+ of its tokenizer\.ggml\.tokens array claims a string of \d+ bytes, more than the \d+ bytes left/,
  'absurd-dims.gguf': /tensor weights claims more elements than llama\.cpp can count/,
  'nine-dims.gguf': /tensor weights has 9 dimensions/,
  'data-past-end.gguf': /it is truncated: its tensors need \d+ bytes but the file has \d+/,
  'unknown-type.gguf': /general\.architecture has unknown value type 99/,
  'escape-key.gguf': /^it is corrupt: its evil\?\[2Jarchitecture has unknown value type 99\.?$/,
  'version-one.gguf': /GGUF version 1; only versions 2 and 3/,
  'not-gguf.gguf': /it is not a GGUF file: it does not start with "GGUF"/,
};

let dir: { path: string; cleanup: () => Promise<void> };
const models = () => join(dir.path, 'models');

beforeAll(async () => {
  dir = await tempDir('quire-gguf-header-');
  await mkdir(models());
  for (const [name, bytes] of Object.entries(craftedFiles())) await writeFile(join(models(), name), bytes);
  await writeFile(join(models(), 'tiny-chat.gguf'), TINY);
});
afterAll(() => dir.cleanup());
beforeEach(() => {
  reader.calls.length = 0;
});

describe('the GGUF header check', () => {
  it.each(Object.keys(REASONS))('names %s unusable without node-llama-cpp reading it', async (name) => {
    const path = join(models(), name);
    await expect(readGgufHeader(path)).rejects.toThrow(UnusableGgufError);
    expect(await ggufFileProblem(path)).toMatch(REASONS[name]!);
    // describeGguf is every product path to node-llama-cpp's reader: it refuses the file first.
    const error = await describeGguf(path).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(QuireError);
    expect((error as QuireError).code).toBe('model_failed');
    expect((error as QuireError).message).toContain(`${path} cannot be used: `);
    expect(reader.calls).toEqual([]);
  });

  it('passes the good tiny model, which node-llama-cpp then reads', async () => {
    const path = join(models(), 'tiny-chat.gguf');
    const header = await readGgufHeader(path);
    expect(header).toMatchObject({ version: 3, architecture: 'llama', name: 'quire-tiny-test' });
    expect(header.metadata.get('tokenizer.ggml.tokens')).toMatchObject({ itemType: ValueType.String });
    expect((await describeGguf(path)).architecture).toBe('llama');
    expect(reader.calls).toEqual([path]);
  });
});

describe('the models folder', () => {
  it('lists every crafted file as unusable and still offers the good one', async () => {
    const folder = await scanModelsFolder(models());
    expect([...folder.unusable.keys()].sort()).toEqual(
      Object.keys(REASONS)
        .map((name) => join(models(), name))
        .sort(),
    );
    expect(folder.otherGgufs).toEqual(['tiny-chat.gguf']);
    expect(localModelFor('decide', folder)?.path).toBe(join(models(), 'tiny-chat.gguf'));
    expect(reader.calls).toEqual([]);
  });

  it('reports them in the models status, where `quire models status` and the Models panel read them', async () => {
    const service = new ModelService({
      dataDir: dir.path,
      memory: () => ({
        totalBytes: 16e9,
        availableBytes: 8e9,
        unifiedMemory: false,
        appHeadroomBytes: 1e9,
        entries: [],
        freeForModelsBytes: 7e9,
        notes: [],
      }),
      candidates: () => [],
    });
    try {
      const status = await service.refresh();
      const unusable = new Map(status.unusableFiles.map((file) => [file.path, file.reason]));
      for (const [name, reason] of Object.entries(REASONS))
        expect(unusable.get(join(models(), name))).toMatch(reason);
      const decide = status.roles.find((role) => role.role === 'decide');
      expect(decide).toMatchObject({ provider: 'llama', model: join(models(), 'tiny-chat.gguf') });
      // Only the good file reached node-llama-cpp's reader (to size its memory).
      expect(new Set(reader.calls)).toEqual(new Set([join(models(), 'tiny-chat.gguf')]));
    } finally {
      await service.dispose();
    }
  });
});

const realSkip = realModelsSkipReason();
describe.skipIf(realSkip !== null)(`real GGUF weights${realSkip ? ` (skipped: ${realSkip})` : ''}`, () => {
  it('pass the check', async () => {
    const real = readRealModels();
    if (typeof real === 'string') throw new Error(real);
    expect(real.chats.length).toBeGreaterThan(0);
    for (const chat of real.chats) {
      const header = await readGgufHeader(chat.path);
      expect(header.tensors.length, chat.path).toBeGreaterThan(0);
      expect(header.parameters, chat.path).toBe(chat.parameters);
    }
  });
});
