import { spawnSync } from 'node:child_process';
import { mkdir, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OnnxTextEmbedder } from '../../src/core/models/onnx/onnxTextEmbedder';
import { RECIPES } from '../../src/core/models/onnx/textEmbedderFiles';
import { estimatedResidentBytes } from '../../src/core/models/onnx/textEmbedderMemory';
import { quireRejection } from '../helpers/rejection';
import { tempDir } from '../helpers/shared';
import { TINY_TEXT_EMBEDDER, writeTinyTextEmbedder } from './tinyTextEmbedder';

/*
 * The in-process ONNX text embedder end to end on a tiny random-weight BERT-shaped model: real ONNX
 * Runtime in its own host process, the real tokenizer library, and the folders a user can get wrong.
 */

let dir: Awaited<ReturnType<typeof tempDir>>;
let bge: OnnxTextEmbedder;
let e5: OnnxTextEmbedder;
let minilm: OnnxTextEmbedder;

/** Text embedder host children of this process, as `pid args` lines. */
function hostChildren(): string[] {
  const listing = spawnSync('ps', ['-o', 'pid=,args=', '--ppid', String(process.pid)], { encoding: 'utf8' });
  return listing.stdout.split('\n').filter((line) => line.includes('textEmbedder.child'));
}

function norm(vector: Float32Array): number {
  return Math.sqrt(vector.reduce((sum, value) => sum + value * value, 0));
}

function maxDifference(a: Float32Array, b: Float32Array): number {
  expect(a.length).toBe(b.length);
  return a.reduce((worst, value, i) => Math.max(worst, Math.abs(value - b[i]!)), 0);
}

const TEXTS = [
  'The cat slept all afternoon on the warm windowsill.',
  'Revenue rose.',
  'To reset the router, hold the button on the back for ten seconds, then wait for the light.',
  'a',
];

beforeAll(async () => {
  dir = await tempDir('quire-onnx-text-');
  await writeTinyTextEmbedder(join(dir.path, 'tiny-bge-small'));
  await writeTinyTextEmbedder(join(dir.path, 'tiny-e5'));
  await writeTinyTextEmbedder(join(dir.path, 'tiny-MiniLM'));
  const load = (name: string) => OnnxTextEmbedder.create({ modelPath: join(dir.path, name), threads: 1 });
  [bge, e5, minilm] = await Promise.all([load('tiny-bge-small'), load('tiny-e5'), load('tiny-MiniLM')]);
}, 120_000);
afterAll(async () => {
  await Promise.allSettled([bge?.dispose(), e5?.dispose(), minilm?.dispose()]);
  await dir.cleanup();
});

describe('the ONNX text embedder on a tiny model', () => {
  it('learns the vector size, names itself by family, folder and file, and reports its memory', async () => {
    expect(bge.dimensions).toBe(TINY_TEXT_EMBEDDER.dimensions);
    expect(bge.id).toMatch(/^onnx:bge:tiny-bge-small:[0-9a-f]{12}$/);
    expect(e5.id).toMatch(/^onnx:e5:tiny-e5:/);
    expect(minilm.id).toMatch(/^onnx:minilm:tiny-MiniLM:/);
    // The same file pooled another way must never share vectors with it.
    expect(bge.id.split(':')[3]).toBe(e5.id.split(':')[3]);
    expect(bge.id).not.toBe(e5.id);
    const bytes = (await stat(join(dir.path, 'tiny-bge-small', 'model.onnx'))).size;
    const entry = bge.memoryEntry();
    expect(entry).toMatchObject({ roles: ['embed'], loaded: true, weightsBytes: bytes, external: false });
    expect(entry.weightsBytes + entry.kvCacheBytes).toBe(estimatedResidentBytes(bytes));
    expect(hostChildren().length).toBeGreaterThanOrEqual(3);
  });

  it('gives each text one unit vector', async () => {
    for (const embedder of [bge, e5, minilm]) {
      const vectors = await embedder.embed(TEXTS);
      expect(vectors).toHaveLength(TEXTS.length);
      for (const vector of vectors) {
        expect(vector).toHaveLength(TINY_TEXT_EMBEDDER.dimensions);
        expect(norm(vector)).toBeCloseTo(1, 5);
      }
      expect(maxDifference(vectors[0]!, vectors[1]!)).toBeGreaterThan(0.01);
    }
  });

  it('gives a text in a padded batch the vector it gets alone', async () => {
    for (const embedder of [bge, e5, minilm]) {
      const together = await embedder.embed(TEXTS);
      for (const [i, text] of TEXTS.entries()) {
        const [alone] = await embedder.embed([text]);
        expect(maxDifference(together[i]!, alone!)).toBeLessThan(1e-5);
      }
    }
  });

  it('pools as the family says: the first token for BGE, the mean over real tokens for E5 and MiniLM', async () => {
    // Same weights, same prefixes for MiniLM and a BGE passage: only the pooling differs.
    const [cls] = await bge.embed([TEXTS[0]!]);
    const [mean] = await minilm.embed([TEXTS[0]!]);
    expect(maxDifference(cls!, mean!)).toBeGreaterThan(0.01);
  });

  it('puts the query prefix before a query, and the passage prefix before a passage', async () => {
    const text = 'kitten dozing by the glass pane';
    // BGE's query instruction is left out (measured: see its recipe): a query embeds as a passage.
    const [bgeQuery] = await bge.embed([text], { kind: 'query' });
    const [bgePassage] = await bge.embed([text], { kind: 'passage' });
    expect(RECIPES.bge.queryPrefix).toBe('');
    expect(maxDifference(bgeQuery!, bgePassage!)).toBeLessThan(1e-6);

    const [e5Query] = await e5.embed([text], { kind: 'query' });
    const [e5Passage] = await e5.embed([text]);
    const [e5QueryAsMiniLM] = await minilm.embed([`query: ${text}`]);
    const [e5PassageAsMiniLM] = await minilm.embed([`passage: ${text}`]);
    // E5 and MiniLM both mean-pool the same weights here: only the prefixes tell them apart.
    expect(maxDifference(e5Query!, e5QueryAsMiniLM!)).toBeLessThan(1e-5);
    expect(maxDifference(e5Passage!, e5PassageAsMiniLM!)).toBeLessThan(1e-5);

    const [minilmQuery] = await minilm.embed([text], { kind: 'query' });
    const [minilmPassage] = await minilm.embed([text]);
    expect(maxDifference(minilmQuery!, minilmPassage!)).toBeLessThan(1e-6);
  });

  it('cuts a long text to the model’s longest input, keeping its closing token', async () => {
    // One token per single-letter word: [CLS] + 510 words + [SEP] is exactly 512.
    const words = Array.from({ length: 700 }, (_, i) => 'abcdefghij'[i % 10]!);
    const [long] = await bge.embed([words.join(' ')]);
    const [cut] = await bge.embed([words.slice(0, 510).join(' ')]);
    const [shorter] = await bge.embed([words.slice(0, 509).join(' ')]);
    expect(maxDifference(long!, cut!)).toBeLessThan(1e-5);
    expect(maxDifference(long!, shorter!)).toBeGreaterThan(1e-4);
  });

  it('embeds nothing for no texts, and stops a call when asked to', async () => {
    expect(await bge.embed([])).toEqual([]);
    const before = new AbortController();
    before.abort();
    expect((await quireRejection(bge.embed(TEXTS, { signal: before.signal }))).code).toBe('cancelled');
    const during = new AbortController();
    const many = Array.from({ length: 400 }, (_, i) => `${TEXTS[2]} ${i}`.repeat(4));
    const call = bge.embed(many, { signal: during.signal });
    during.abort();
    expect((await quireRejection(call)).code).toBe('cancelled');
    // The host is still there for the next call.
    expect(await bge.embed([TEXTS[1]!])).toHaveLength(1);
  });

  it('survives its host dying: the call fails with a clear error and the next one loads the model again', async () => {
    await e5.embed(['warm up']);
    const pids = hostChildren().map((line) => Number(line.trim().split(/\s+/)[0]));
    const many = Array.from({ length: 300 }, (_, i) => `${TEXTS[2]} ${i}`.repeat(4));
    const call = e5.embed(many);
    for (const pid of pids) process.kill(pid, 'SIGKILL');
    const error = await quireRejection(call);
    expect(error.code).toBe('model_failed');
    expect(error.message).toMatch(/model host for .*tiny-e5 was killed by SIGKILL/);
    const [again] = await e5.embed([TEXTS[0]!]);
    expect(norm(again!)).toBeCloseTo(1, 5);
    // The other embedders lost their hosts too, and come back the same way.
    expect(await bge.embed([TEXTS[0]!])).toHaveLength(1);
    expect(await minilm.embed([TEXTS[0]!])).toHaveLength(1);
  }, 60_000);

  it('ends its host after the idle time and loads again on the next call', async () => {
    const folder = join(dir.path, 'idle-bge');
    await writeTinyTextEmbedder(folder);
    const embedder = await OnnxTextEmbedder.create({ modelPath: folder, threads: 1, idleUnloadMs: 200 });
    try {
      const seen: boolean[] = [];
      embedder.onLoadedChange((loaded) => seen.push(loaded));
      const [first] = await embedder.embed([TEXTS[0]!]);
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(embedder.memoryEntry().loaded).toBe(false);
      const [second] = await embedder.embed([TEXTS[0]!]);
      expect(maxDifference(first!, second!)).toBeLessThan(1e-6);
      expect(seen).toEqual([false, true]);
    } finally {
      await embedder.dispose();
    }
    expect(embedder.memoryEntry().loaded).toBe(false);
  }, 30_000);
});

describe('text embedder folders that cannot be used', () => {
  it('refuses a model whose family it cannot tell, before starting any process', async () => {
    const folder = join(dir.path, 'mystery-model');
    await writeTinyTextEmbedder(folder);
    const before = hostChildren().length;
    const error = await quireRejection(OnnxTextEmbedder.create({ modelPath: folder, threads: 1 }));
    expect(error.code).toBe('unsupported');
    expect(error.message).toContain('cannot tell which kind of text embedder');
    expect(error.message).toContain('quire-embedder.json');
    expect(hostChildren()).toHaveLength(before);
  });

  it('takes the family from quire-embedder.json beside the model, and refuses one it does not know', async () => {
    const folder = join(dir.path, 'mystery-named');
    await writeTinyTextEmbedder(folder);
    await writeFile(join(folder, 'quire-embedder.json'), JSON.stringify({ family: 'e5' }));
    const named = await OnnxTextEmbedder.create({ modelPath: join(folder, 'model.onnx'), threads: 1 });
    try {
      expect(named.id).toMatch(/^onnx:e5:mystery-named:/);
      const [query] = await named.embed(['glass pane'], { kind: 'query' });
      const [same] = await e5.embed(['glass pane'], { kind: 'query' });
      expect(maxDifference(query!, same!)).toBeLessThan(1e-6);
    } finally {
      await named.dispose();
    }
    await writeFile(join(folder, 'quire-embedder.json'), JSON.stringify({ family: 'gte' }));
    const error = await quireRejection(OnnxTextEmbedder.create({ modelPath: folder, threads: 1 }));
    expect(error.message).toMatch(/names the family "gte"; Quire knows bge, e5, minilm/);
  });

  it('says which file is missing', async () => {
    const folder = join(dir.path, 'bge-without-tokenizer');
    await writeTinyTextEmbedder(folder);
    await rm(join(folder, 'tokenizer.json'));
    const noTokenizer = await quireRejection(OnnxTextEmbedder.create({ modelPath: folder, threads: 1 }));
    expect(noTokenizer.code).toBe('not_found');
    expect(noTokenizer.message).toMatch(/has no tokenizer: put its tokenizer\.json beside model\.onnx/);

    const empty = join(dir.path, 'bge-empty');
    await mkdir(empty);
    const noModel = await quireRejection(OnnxTextEmbedder.create({ modelPath: empty, threads: 1 }));
    expect(noModel.message).toMatch(/bge-empty has no model\.onnx/);

    const nowhere = await quireRejection(
      OnnxTextEmbedder.create({ modelPath: join(dir.path, 'bge-nowhere'), threads: 1 }),
    );
    expect(nowhere.message).toMatch(/bge-nowhere does not exist/);
  });

  it('ends its host with a typed error when the graph has no text inputs', async () => {
    const folder = join(dir.path, 'bge-not-text');
    await writeTinyTextEmbedder(folder);
    const model = join(folder, 'model.onnx');
    const { readFile } = await import('node:fs/promises');
    const bytes = await readFile(model);
    // Renames the graph's input_ids everywhere: a model without the input a text embedder feeds.
    await writeFile(
      model,
      Buffer.from(bytes.toString('latin1').replaceAll('input_ids', 'input_idz'), 'latin1'),
    );
    const before = hostChildren().length;
    const error = await quireRejection(OnnxTextEmbedder.create({ modelPath: folder, threads: 1 }));
    expect(error.code).toBe('model_failed');
    expect(error.message).toContain('is not a sentence embedder: it lacks the input(s) input_ids');
    expect(hostChildren()).toHaveLength(before);
  }, 60_000);
});
