import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { OnnxTextEmbedder } from '../../src/core/models/onnx/onnxTextEmbedder';
import { estimatedResidentBytes } from '../../src/core/models/onnx/textEmbedderMemory';
import { inCi, REAL_WEIGHTS_MISSING, realEmbedders } from '../helpers/realModels';

/*
 * Quire's ONNX text embedder against each model's Python reference: the same sentences through the
 * same files, embedded by onnxruntime and tokenizers in Python with pooling and prefixes written
 * there on their own (scripts/realModels/embedderReference.py), must give the same vectors.
 */

interface Reference {
  sentences: string[];
  /** Which sentences were also embedded as queries. */
  queries: number[];
  models: Record<string, { family: string; modelSha256: string; passages: number[][]; queries: number[][] }>;
}

const reference = JSON.parse(
  readFileSync(join(import.meta.dirname, '..', 'fixtures', 'embedderReference.json'), 'utf8'),
) as Reference;

const REQUIRED = ['bge-small-en-v1.5-int8', 'e5-small-v2-int8'];
const OPTIONAL = ['all-MiniLM-L6-v2-int8'];
const found = realEmbedders([...REQUIRED, ...OPTIONAL]);
const missing = REQUIRED.filter((name) => !found.has(name));
const skip = missing.length > 0 && !inCi;
if (skip) console.log(REAL_WEIGHTS_MISSING);

function cosine(a: Float32Array, b: readonly number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  a.forEach((value, i) => {
    dot += value * b[i]!;
    na += value * value;
    nb += b[i]! * b[i]!;
  });
  return dot / Math.sqrt(na * nb);
}

/** Process ids of this process's text embedder hosts. */
function hostPids(): number[] {
  const listing = spawnSync('ps', ['-o', 'pid=,args=', '--ppid', String(process.pid)], { encoding: 'utf8' });
  return listing.stdout
    .split('\n')
    .filter((line) => line.includes('textEmbedder.child'))
    .map((line) => Number(line.trim().split(/\s+/)[0]));
}

/** The most a process has held resident (VmHWM), from /proc. */
function peakResidentBytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/^VmHWM:\s+(\d+) kB/m.exec(status)![1]) * 1024;
}

const opened: OnnxTextEmbedder[] = [];
afterAll(async () => {
  await Promise.allSettled(opened.map((embedder) => embedder.dispose()));
});

describe.skipIf(skip)('real sentence embedders against their Python reference', () => {
  it('has the real weights', () => {
    expect(missing, REAL_WEIGHTS_MISSING).toEqual([]);
  });

  for (const name of [...REQUIRED, ...OPTIONAL]) {
    it.skipIf(!found.has(name) && !REQUIRED.includes(name))(
      `${name}: passages and queries agree with the reference at cosine >= 0.999`,
      async () => {
        const entry = found.get(name);
        expect(entry, REAL_WEIGHTS_MISSING).toBeDefined();
        const expected = reference.models[name]!;
        expect(
          entry!.sha256,
          'the reference vectors were made from another file: run scripts/realModels/embedderReference.py again',
        ).toBe(expected.modelSha256);
        const embedder = await OnnxTextEmbedder.create({ modelPath: entry!.path, threads: 2 });
        opened.push(embedder);
        expect(embedder.id).toContain(`onnx:${expected.family}:`);
        // One sentence per call, as the reference ran them (see below for batches).
        const passages: Float32Array[] = [];
        for (const sentence of reference.sentences) passages.push(...(await embedder.embed([sentence])));
        const queries: Float32Array[] = [];
        for (const i of reference.queries)
          queries.push(...(await embedder.embed([reference.sentences[i]!], { kind: 'query' })));
        const cosines = [
          ...passages.map((vector, i) => cosine(vector, expected.passages[i]!)),
          ...queries.map((vector, i) => cosine(vector, expected.queries[i]!)),
        ];
        console.log(`${name}: lowest cosine to the Python reference ${Math.min(...cosines).toFixed(6)}`);
        for (const value of cosines) expect(value).toBeGreaterThanOrEqual(0.999);
        // A query is not its passage where the family prefixes queries (E5); BGE and MiniLM do not.
        const sameAsPassage = cosine(queries[0]!, [...passages[0]!]);
        if (expected.family !== 'e5') expect(sameAsPassage).toBeGreaterThan(0.99999);
        else expect(sameAsPassage).toBeLessThan(0.99);
        // In one padded batch the int8 activations share one quantization range: close, not equal.
        const batched = await embedder.embed(reference.sentences);
        const drift = batched.map((vector, i) => cosine(vector, [...passages[i]!]));
        console.log(
          `${name}: lowest cosine of a batched sentence to itself alone ${Math.min(...drift).toFixed(6)}`,
        );
        for (const value of drift) expect(value).toBeGreaterThanOrEqual(0.99);
      },
      120_000,
    );
  }

  it.skipIf(!existsSync('/proc/self/status'))(
    'holds what the memory budget is told, within 15%, while embedding long chunks',
    async () => {
      const entry = found.get('bge-small-en-v1.5-int8');
      expect(entry, REAL_WEIGHTS_MISSING).toBeDefined();
      const before = new Set(hostPids());
      const embedder = await OnnxTextEmbedder.create({ modelPath: entry!.path, threads: 2 });
      opened.push(embedder);
      const [pid] = hostPids().filter((candidate) => !before.has(candidate));
      // 64 chunks of 200 words of English prose (~300 tokens each), as indexing sends them.
      const words = readFileSync(join(import.meta.dirname, '..', '..', 'DESIGN.md'), 'utf8')
        .split(/\s+/)
        .filter((word) => /^[A-Za-z][a-z,.;:'-]*$/.test(word));
      const chunks = Array.from({ length: 64 }, (_, i) =>
        Array.from({ length: 200 }, (_, k) => words[(i * 200 + k) % words.length]).join(' '),
      );
      await embedder.embed(chunks);
      const held = peakResidentBytes(pid!);
      const told = embedder.memoryEntry().weightsBytes + embedder.memoryEntry().kvCacheBytes;
      expect(told).toBe(estimatedResidentBytes(entry!.bytes));
      console.log(
        `bge-small host peak ${(held / 1e6).toFixed(0)} MB, budget told ${(told / 1e6).toFixed(0)} MB`,
      );
      expect(Math.abs(held - told) / held).toBeLessThan(0.15);
    },
    300_000,
  );

  it('finds a paraphrase that shares no word with its passage', async () => {
    const entry = found.get('bge-small-en-v1.5-int8');
    expect(entry, REAL_WEIGHTS_MISSING).toBeDefined();
    const embedder = await OnnxTextEmbedder.create({ modelPath: entry!.path, threads: 2 });
    opened.push(embedder);
    const passages = await embedder.embed(reference.sentences);
    const [query] = await embedder.embed(['kitten dozing by the glass pane'], { kind: 'query' });
    const scores = passages.map((passage) => cosine(query!, [...passage]));
    expect(scores.indexOf(Math.max(...scores))).toBe(0);
  }, 120_000);
});
