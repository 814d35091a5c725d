import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MemoryEntry } from '../../src/shared/domain/models';
import { MemoryBudgetService } from '../../src/core/memory/memoryBudgetService';
import { checkVisionFiles } from '../../src/core/models/vision/visionFiles';
import { LocalVisionModels } from '../../src/core/models/vision/localVisionModels';
import { writeTinyGguf } from '../helpers/tinyModel';
import { buildTinyProjector, writeTinyProjector } from '../helpers/tinyProjector';

const standIn = { callerUrl: import.meta.url, path: '../standins/visionHost.child.ts' };

let dir: string;
let model: string;
let projector: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'quire-vision-'));
  model = join(dir, 'tiny.gguf');
  projector = join(dir, 'mmproj-tiny.gguf');
  await writeTinyGguf(model);
  await writeTinyProjector(projector);
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A machine with room for the tiny files: this machine's, or a given size. */
async function budgetFor(totalBytes?: number) {
  const memory = new MemoryBudgetService(
    totalBytes === undefined
      ? {}
      : {
          readMachine: async () => ({
            totalBytes,
            availableBytes: totalBytes,
            unifiedMemory: false,
            source: 'freemem' as const,
          }),
          headroomBytes: () => 0,
        },
  );
  await memory.refresh();
  const entries: MemoryEntry[] = [];
  return { memory, entries, onMemoryEntry: (entry: MemoryEntry) => entries.push(entry) };
}

async function webpPage(): Promise<Uint8Array> {
  const image = sharp({ create: { width: 300, height: 200, channels: 3, background: '#ffffff' } });
  return new Uint8Array(await image.webp().toBuffer());
}

describe('vision model files, checked before loading', () => {
  it('accepts a model with its projector and says what the projector is', async () => {
    const files = await checkVisionFiles(model, projector);
    expect(files.projectorType).toBe('mlp');
    expect(files.projectorBytes).toBe(buildTinyProjector().length);
    expect(files.model.architecture).toBe('llama');
  });

  it('refuses a junk, truncated or swapped file, naming it and the reason', async () => {
    const junk = join(dir, 'junk.gguf');
    await writeFile(junk, Buffer.from('this is not a model at all, only words in a file'));
    const truncated = join(dir, 'mmproj-truncated.gguf');
    await writeFile(truncated, buildTinyProjector().subarray(0, 20_000));
    const cases: Array<[string, string, RegExp]> = [
      [model, junk, /The projector .*junk\.gguf cannot be used: it is not a readable GGUF file/],
      [model, truncated, /The projector .*mmproj-truncated\.gguf cannot be used: it is truncated/],
      [model, model, /The projector .*tiny\.gguf cannot be used: it is a llama model, not a projector/],
      [projector, projector, /The vision model .*mmproj-tiny\.gguf cannot be used: it is a projector/],
      [junk, projector, /The vision model .*junk\.gguf cannot be used: .*not a readable GGUF/],
    ];
    for (const [m, p, reason] of cases) {
      await expect(checkVisionFiles(m, p)).rejects.toMatchObject({ code: 'model_failed', message: reason });
    }
  });

  it('starts no process for a refused file', async () => {
    const truncated = join(dir, 'mmproj-cut.gguf');
    await writeFile(truncated, buildTinyProjector().subarray(0, 5_000));
    const { memory, entries, onMemoryEntry } = await budgetFor();
    // A host entry that does not exist: starting it would fail differently from the refusal.
    const models = new LocalVisionModels({
      memory,
      onMemoryEntry,
      hostEntry: { callerUrl: import.meta.url, path: '../standins/no-such-host.child.ts' },
    });
    await expect(models.load(model, truncated)).rejects.toThrow(
      /mmproj-cut\.gguf cannot be used: it is truncated/,
    );
    expect(entries).toEqual([]);
    await models.dispose();
  });
});

describe('the memory budget', () => {
  it('refuses a vision model that does not fit, before starting its host', async () => {
    const { memory, entries, onMemoryEntry } = await budgetFor(200_000);
    const models = new LocalVisionModels({ memory, onMemoryEntry, hostEntry: standIn });
    await expect(models.load(model, projector)).rejects.toMatchObject({ code: 'model_unavailable' });
    expect(entries).toEqual([]);
    await models.dispose();
  });
});

describe('the vision host, through a stand-in that speaks its messages', () => {
  it('sends page images as PNG, streams the answer and reports its memory', async () => {
    const { memory, entries, onMemoryEntry } = await budgetFor();
    const models = new LocalVisionModels({
      memory,
      onMemoryEntry,
      gpu: false,
      threads: 1,
      hostEntry: standIn,
    });
    try {
      const vision = await models.load(model, projector);
      expect(vision.supportsImages).toBe(true);
      const tokens: string[] = [];
      const response = await vision.chat({
        messages: [{ role: 'user', content: 'What is on the page?', images: [await webpPage()] }],
        onToken: (text) => tokens.push(text),
      });
      // llama.cpp reads no WebP: the stored page image is sent as PNG.
      expect(response.text).toBe('saw 1 image(s): png 300x200;');
      expect(tokens.join('').trim()).toBe(response.text);
      const entry = entries.at(-1)!;
      expect(entry).toMatchObject({ roles: ['see'], loaded: true, external: false });
      expect(entry.weightsBytes).toBeGreaterThan(buildTinyProjector().length);
      expect(entry.kvCacheBytes).toBeGreaterThan(0);
    } finally {
      await models.dispose();
    }
    expect(entries.at(-1)).toMatchObject({ loaded: false });
  });

  it('ends the host of a load that is cancelled, and says it was cancelled', async () => {
    const { memory, entries, onMemoryEntry } = await budgetFor();
    const models = new LocalVisionModels({ memory, onMemoryEntry, hostEntry: standIn });
    const controller = new AbortController();
    const loading = models.load(model, projector, controller.signal);
    setTimeout(() => controller.abort(), 5);
    await expect(loading).rejects.toMatchObject({ code: 'cancelled' });
    expect(entries).toEqual([]);
    await models.dispose();
  });

  it('stops a look that is cancelled', async () => {
    const { memory, onMemoryEntry } = await budgetFor();
    const models = new LocalVisionModels({ memory, onMemoryEntry, hostEntry: standIn });
    try {
      const vision = await models.load(model, projector);
      const controller = new AbortController();
      const look = vision.chat({
        messages: [{ role: 'user', content: 'wait', images: [await webpPage()] }],
        signal: controller.signal,
      });
      setTimeout(() => controller.abort(), 50);
      await expect(look).rejects.toMatchObject({ code: 'cancelled' });
      // The host is still there for the next look.
      const next = await vision.chat({ messages: [{ role: 'user', content: 'again' }] });
      expect(next.text).toBe('saw 0 image(s):');
    } finally {
      await models.dispose();
    }
  });
});

describe('the real package (@fugood/llama.node) in its own process', () => {
  it('loads the tiny model with the tiny projector and reads a page image', async () => {
    const { memory, entries, onMemoryEntry } = await budgetFor();
    const models = new LocalVisionModels({ memory, onMemoryEntry, gpu: false, threads: 1 });
    try {
      const vision = await models.load(model, projector);
      const tokens: string[] = [];
      const response = await vision.chat({
        messages: [{ role: 'user', content: 'Describe the page.', images: [await webpPage()] }],
        maxTokens: 6,
        temperature: 0,
        onToken: (text) => tokens.push(text),
      });
      // Random weights say nothing useful; that the image went through and tokens came back is the test.
      expect(response.outputTokens).toBeGreaterThan(0);
      expect(tokens.length).toBeGreaterThan(0);
      expect(entries.at(-1)).toMatchObject({ loaded: true, roles: ['see'] });
    } finally {
      await models.dispose();
    }
  }, 60_000);

  it('reports a projector llama.cpp will not pair with the model as a failed load, not a crash', async () => {
    // A projector whose output does not match the model's embeddings (64): only the model load can tell.
    const wrong = join(dir, 'mmproj-wrong.gguf');
    await writeFile(wrong, buildTinyProjector(1, { outputLength: 48 }));
    const { memory, onMemoryEntry } = await budgetFor();
    const models = new LocalVisionModels({ memory, onMemoryEntry, gpu: false, threads: 1 });
    try {
      await expect(models.load(model, wrong)).rejects.toMatchObject({
        code: 'model_failed',
        message: expect.stringMatching(/mmproj-wrong\.gguf did not load with/),
      });
    } finally {
      await models.dispose();
    }
  }, 60_000);
});
