import { spawnSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { getLlama } from 'node-llama-cpp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore } from '../../src/core/createCore';
import { describeGguf } from '../../src/core/models/llama/describeGguf';
import { GGML_TYPE_BLOCKS } from '../../src/core/models/llama/ggufLayout';
import { ModelHostClient } from '../../src/core/models/llama/modelHostClient';
import type { ModelsStatus } from '../../src/shared/domain/models';
import { quireRejection } from '../helpers/rejection';
import { tempDir } from '../helpers/shared';
import { buildTinyGguf } from '../helpers/tinyModel';

let dir: Awaited<ReturnType<typeof tempDir>>;
let good: Buffer;
let goodPath: string;
let truncatedPath: string;

beforeAll(async () => {
  dir = await tempDir('quire-broken-models-');
  good = buildTinyGguf();
  goodPath = join(dir.path, 'tiny.gguf');
  truncatedPath = join(dir.path, 'truncated.gguf');
  await writeFile(goodPath, good);
  await writeFile(truncatedPath, good.subarray(0, good.length >> 1));
});
afterAll(() => dir.cleanup());

/** Model host children of this process, as `pid args` lines. */
function modelHostChildren(): string[] {
  // ps exits with 1 when the process has no children at all; its output is still the answer.
  const listing = spawnSync('ps', ['-o', 'pid=,args=', '--ppid', String(process.pid)], { encoding: 'utf8' });
  return listing.stdout.split('\n').filter((line) => line.includes('modelHost.child'));
}

describe('GGUF checks before a model is offered', () => {
  it('finds every cut of a model file, from inside the header to one byte short', async () => {
    await expect(describeGguf(goodPath)).resolves.toMatchObject({ embeddingLength: 64 });
    for (const keep of [good.length - 1, good.length - 4096, good.length >> 1, 20_000, 9_000, 100, 8]) {
      const path = join(dir.path, `cut-${keep}.gguf`);
      await writeFile(path, good.subarray(0, keep));
      const error = await quireRejection(describeGguf(path));
      expect(error.code, `cut at ${keep}`).toBe('model_failed');
      expect(error.message, `cut at ${keep}`).toMatch(/truncated|corrupt|not a readable GGUF/);
      expect(error.message).toContain(path);
    }
  });

  it('reports a header that announces more tensors than its table holds as corrupt', async () => {
    const path = join(dir.path, 'more-tensors.gguf');
    const patched = Buffer.from(good);
    // GGUF v3: magic (4), version (4), then the tensor count as a little-endian u64.
    patched.writeBigUInt64LE(patched.readBigUInt64LE(8) + 1n, 8);
    await writeFile(path, patched);
    const error = await quireRejection(describeGguf(path));
    expect(error.message).toMatch(/corrupt|truncated|not a readable GGUF/);
  });

  it('sizes tensor types the way the bundled llama.cpp does', async () => {
    const llama = (await getLlama({ gpu: false, build: 'never', progressLogs: false })) as unknown as {
      _bindings: {
        getTypeSizeForGgmlType(type: number): number | undefined;
        getBlockSizeForGgmlType(type: number): number | undefined;
      };
    };
    for (const [type, block] of Object.entries(GGML_TYPE_BLOCKS)) {
      expect(llama._bindings.getTypeSizeForGgmlType(Number(type)), `type ${type}`).toBe(block.bytes);
      expect(llama._bindings.getBlockSizeForGgmlType(Number(type)), `type ${type}`).toBe(block.values);
    }
  });
});

describe('a model that fails to load', () => {
  it('ends its child with a typed error, and a good model loads next', async () => {
    // Straight to the host, past the header check: the child meets the file llama.cpp refuses.
    const broken = new ModelHostClient({ load: { modelPath: truncatedPath, gpu: false, threads: 1 } });
    const started = performance.now();
    const error = await quireRejection(broken.ensureLoaded());
    console.log(`failed load reported in ${Math.round(performance.now() - started)} ms`);
    expect(error.code).toBe('model_failed');
    expect(error.message).toContain(truncatedPath);
    expect(modelHostChildren()).toEqual([]);
    await broken.dispose();

    const healthy = new ModelHostClient({ load: { modelPath: goodPath, gpu: false, threads: 1 } });
    try {
      const [vector] = await healthy.embed(['still works']);
      expect(vector).toHaveLength(64);
      expect(modelHostChildren()).toHaveLength(1);
    } finally {
      await healthy.dispose();
    }
    expect(modelHostChildren()).toEqual([]);
  });

  it('is reported as unusable with the reason, and works once the file is replaced', async () => {
    const path = join(dir.path, 'replaced.gguf');
    await writeFile(path, good.subarray(0, good.length >> 1));
    const data = await tempDir();
    const core = createCore({
      dataDir: data.path,
      detectServers: false,
      ingest: false,
      modelPath: path,
      modelThreads: 1,
      gpu: false,
    });
    try {
      await core.start();
      const status = await core.dispatch('models.status', {});
      if (!status.ok) throw new Error(status.error.message);
      const decide = (status.value as ModelsStatus).roles.find((role) => role.role === 'decide');
      expect(decide).toMatchObject({ provider: null });
      expect(decide?.reason).toMatch(/cannot be used: it is truncated/);
      expect(await core.models.chatModel('decide')).toBeNull();
      expect(modelHostChildren()).toEqual([]);

      await writeFile(path, good);
      const chat = await core.models.chatModel('decide');
      expect(chat).not.toBeNull();
      const reply = await chat!.chat({ messages: [{ role: 'user', content: 'hi' }], maxTokens: 4 });
      expect(typeof reply.text).toBe('string');
      expect(core.models.status().roles.find((role) => role.role === 'decide')?.provider).toBe('llama');
    } finally {
      await core.dispose();
      await data.cleanup();
    }
    expect(modelHostChildren()).toEqual([]);
  });
});
