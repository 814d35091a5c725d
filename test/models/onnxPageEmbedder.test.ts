import { execFileSync, spawnSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OnnxPageEmbedder } from '../../src/core/models/onnx/onnxPageEmbedder';
import { readOnnxMetadata } from '../../src/core/models/onnx/onnxMetadata';
import { EMBEDDED_FILES_KEY } from '../../src/core/models/onnx/pageEmbedderFiles';
import { quireRejection } from '../helpers/rejection';
import { corpusDir, tempDir, withoutCorpus } from '../helpers/shared';
import { buildTinyPageEmbedder, TINY_PAGE_EMBEDDER } from '../helpers/tinyPageEmbedder';

const noCorpus = withoutCorpus('the ONNX page embedder on a corpus page');

/*
 * The in-process page embedder end to end on the tiny random-weight ONNX model: real ONNX Runtime in
 * its own host process, real page images, and the failures a user can cause with a wrong file.
 */

let dir: Awaited<ReturnType<typeof tempDir>>;
let modelPath: string;
let embedder: OnnxPageEmbedder;

/** Page embedder host children of this process, as `pid args` lines. */
function hostChildren(): string[] {
  const listing = spawnSync('ps', ['-o', 'pid=,args=', '--ppid', String(process.pid)], { encoding: 'utf8' });
  return listing.stdout.split('\n').filter((line) => line.includes('pageEmbedder.child'));
}

function unitLength(vector: Float32Array): number {
  return Math.sqrt(vector.reduce((sum, value) => sum + value * value, 0));
}

beforeAll(async () => {
  dir = await tempDir('quire-onnx-page-');
  modelPath = join(dir.path, 'tiny-page.onnx');
  await writeFile(modelPath, buildTinyPageEmbedder());
  embedder = await OnnxPageEmbedder.create({ modelPath, threads: 1, accelerator: false });
}, 120_000);
afterAll(async () => {
  await embedder?.dispose();
  await dir.cleanup();
});

describe('the ONNX page embedder on the tiny model', () => {
  it('writes the same file for the same seed, with its tokenizer inside', async () => {
    expect(
      Buffer.from(buildTinyPageEmbedder({ seed: 3 })).equals(Buffer.from(buildTinyPageEmbedder({ seed: 3 }))),
    ).toBe(true);
    expect(
      Buffer.from(buildTinyPageEmbedder({ seed: 3 })).equals(Buffer.from(buildTinyPageEmbedder({ seed: 4 }))),
    ).toBe(false);
    const metadata = await readOnnxMetadata(modelPath);
    expect(JSON.parse(metadata.get(EMBEDDED_FILES_KEY)!)).toHaveProperty('tokenizer.model.type', 'BPE');
  });

  it('loads on the CPU, learns the vector size, and names itself by the file', () => {
    expect(embedder.dimensions).toBe(TINY_PAGE_EMBEDDER.dimensions);
    expect(embedder.info.executionProvider).toBe('cpu');
    expect(embedder.id).toMatch(/^onnx:tiny-page\.onnx:[0-9a-f]{12}$/);
    expect(embedder.memoryEntry()).toMatchObject({ roles: ['pageEmbed'], loaded: true });
    expect(hostChildren()).toHaveLength(1);
  });

  it.skipIf(noCorpus)('embeds a real page image into one unit vector per token', async () => {
    const png = join(dir.path, 'page');
    execFileSync('pdftoppm', [
      '-png',
      '-r',
      '72',
      '-f',
      '1',
      '-l',
      '1',
      '-singlefile',
      join(corpusDir, 'pdfjs/tracemonkey.pdf'),
      png,
    ]);
    const webp = await sharp(`${png}.png`).webp().toBuffer();
    const vectors = await embedder.embedPage({ segments: [], loadImage: async () => webp });
    // A US Letter page: 4 x 4 tiles and the global view, 64 tokens each, plus the prompt's own tokens.
    expect(vectors!.length).toBeGreaterThan(17 * 64);
    expect(vectors!.length).toBeLessThan(17 * 64 + 120);
    for (const vector of vectors!) {
      expect(vector).toHaveLength(128);
      expect(unitLength(vector)).toBeCloseTo(1, 4);
    }
    // Another page gives other vectors: the image reaches the model.
    const blank = await sharp({ create: { width: 612, height: 792, channels: 3, background: '#000' } })
      .webp()
      .toBuffer();
    const other = await embedder.embedPage({ segments: [], loadImage: async () => blank });
    expect(other!.length).toBe(vectors!.length);
    expect(Array.from(other![0]!)).not.toEqual(Array.from(vectors![0]!));
  });

  it('embeds a query as its tokens plus ten augmentation tokens, and declines a page with no image', async () => {
    const vectors = await embedder.embedQuery('trace tree');
    expect(vectors).toHaveLength('trace tree'.length + 10);
    expect(unitLength(vectors[0]!)).toBeCloseTo(1, 4);
    expect(await embedder.embedPage({ segments: ['only text'] })).toBeNull();
  });

  it('stops a call when asked to', async () => {
    const controller = new AbortController();
    controller.abort();
    const error = await quireRejection(embedder.embedQuery('anything', { signal: controller.signal }));
    expect(error.code).toBe('cancelled');
  });
});

describe('page embedders that cannot be used', () => {
  it('rejects a truncated file before starting any process', async () => {
    const path = join(dir.path, 'truncated.onnx');
    const bytes = await readFile(modelPath);
    await writeFile(path, bytes.subarray(0, bytes.length >> 1));
    const before = hostChildren().length;
    const error = await quireRejection(OnnxPageEmbedder.create({ modelPath: path, threads: 1 }));
    expect(error.code).toBe('model_failed');
    expect(error.message).toContain('not a readable ONNX model');
    expect(hostChildren()).toHaveLength(before);
  });

  it('asks for the tokenizer when a model comes without its files', async () => {
    const path = join(dir.path, 'bare', 'model.onnx');
    await import('node:fs/promises').then((fs) => fs.mkdir(join(dir.path, 'bare')));
    await writeFile(path, buildTinyPageEmbedder({ withoutEmbeddedFiles: true }));
    const error = await quireRejection(OnnxPageEmbedder.create({ modelPath: path, threads: 1 }));
    expect(error.message).toMatch(/no tokenizer: put its tokenizer\.json/);
  });

  it('ends its host with a typed error when ONNX Runtime cannot load the graph', async () => {
    // A well-formed file whose graph names an operator no runtime has.
    const bytes = Buffer.from(buildTinyPageEmbedder());
    const broken = Buffer.from(bytes.toString('latin1').replace('Tanh', 'Tanq'), 'latin1');
    expect(broken.equals(bytes)).toBe(false);
    const path = join(dir.path, 'unknown-op.onnx');
    await writeFile(path, broken);
    const before = hostChildren().length;
    const error = await quireRejection(OnnxPageEmbedder.create({ modelPath: path, threads: 1 }));
    expect(error.code).toBe('model_failed');
    expect(error.message).toContain('ONNX Runtime could not load');
    expect(hostChildren()).toHaveLength(before);
  }, 60_000);
});
