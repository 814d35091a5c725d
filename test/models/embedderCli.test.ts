import { spawnSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/shared';
import { inCi, REAL_WEIGHTS_MISSING, realEmbedders } from '../helpers/realModels';
import { writeTinyTextEmbedder } from './tinyTextEmbedder';

/*
 * `quire index --embedder` then `quire search --mode dense --embedder`, as a person types them, with
 * the real bge-small-en-v1.5: a paraphrase that shares no word with its passage finds it first.
 */

const root = new URL('../..', import.meta.url).pathname;
const bge = realEmbedders(['bge-small-en-v1.5-int8']).get('bge-small-en-v1.5-int8');
const e5 = realEmbedders(['e5-small-v2-int8']).get('e5-small-v2-int8');
const skip = !bge && !inCi;
if (skip) console.log(REAL_WEIGHTS_MISSING);

const FILES: Record<string, string> = {
  'cat.txt':
    'The cat slept all afternoon on the warm windowsill, curled up in the sun while the house was quiet.',
  'router.txt':
    'To reset the router, hold the button on its back for ten seconds until the lights blink, then wait two minutes.',
  'revenue.txt':
    'Quarterly revenue rose by twelve percent, driven by exports to Asia and lower shipping costs.',
  'plants.txt':
    'Photosynthesis turns light, water and carbon dioxide into sugar and oxygen inside the leaves of plants.',
};

let dir: Awaited<ReturnType<typeof tempDir>>;

function run(...args: string[]) {
  return spawnSync(process.execPath, [join(root, 'packages/cli/quire.mjs'), ...args], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, LANCEDB_LOG: 'error' },
    timeout: 240_000,
  });
}

function quire(...args: string[]) {
  const done = run(...args);
  expect(done.status, `quire ${args.join(' ')}\n${done.stderr}`).toBe(0);
  return done;
}

beforeAll(async () => {
  dir = await tempDir('quire-embedder-cli-');
  await mkdir(join(dir.path, 'docs'));
  for (const [name, text] of Object.entries(FILES)) await writeFile(join(dir.path, 'docs', name), text);
});
afterAll(async () => {
  await dir?.cleanup();
});

describe('quire index --embedder on a tiny model', () => {
  it('embeds every chunk with the folder given, and fails clearly when the folder cannot be used', async () => {
    const tiny = join(dir.path, 'tiny-bge');
    const mystery = join(dir.path, 'mystery');
    await writeTinyTextEmbedder(tiny);
    await writeTinyTextEmbedder(mystery);
    const docs = join(dir.path, 'docs');
    const indexed = quire(
      'index',
      docs,
      '--data-dir',
      join(dir.path, 'tiny-data'),
      '--embedder',
      tiny,
      '--no-images',
      '--no-ocr',
      '--json',
    );
    const summary = JSON.parse(indexed.stdout) as { embedded: { model: string; items: number } };
    expect(summary.embedded).toMatchObject({ model: tiny, items: Object.keys(FILES).length });

    const refused = run(
      'index',
      docs,
      '--data-dir',
      join(dir.path, 'mystery-data'),
      '--embedder',
      mystery,
      '--no-images',
      '--no-ocr',
    );
    expect(refused.status).toBe(1);
    expect(refused.stdout).not.toContain('Embedded');
    expect(refused.stderr).toContain(
      `the text embedder ${mystery} cannot be used: Quire cannot tell which kind of text embedder`,
    );
  }, 300_000);
});

describe.skipIf(skip)('quire index and search with --embedder', () => {
  it('indexes with the ONNX embedder and finds a paraphrase by meaning alone', () => {
    expect(bge, REAL_WEIGHTS_MISSING).toBeDefined();
    const dataDir = join(dir.path, 'data');
    const common = ['--data-dir', dataDir, '--embedder', bge!.path];
    const indexed = quire('index', join(dir.path, 'docs'), ...common, '--no-images', '--no-ocr', '--json');
    const summary = JSON.parse(indexed.stdout) as { embedded: { model: string; items: number } };
    expect(summary.embedded.model).toBe(bge!.path);
    expect(summary.embedded.items).toBeGreaterThanOrEqual(4);

    const searched = quire(
      'search',
      'kitten dozing by the glass pane',
      ...common,
      '--mode',
      'dense',
      '--json',
    );
    const hits = JSON.parse(searched.stdout) as Array<{ path: string }>;
    expect(hits.length).toBeGreaterThan(0);
    expect(hits[0]!.path).toBe(join(dir.path, 'docs', 'cat.txt'));

    const again = quire('search', 'how do I restart my wifi box', ...common, '--mode', 'dense', '--json');
    expect((JSON.parse(again.stdout) as Array<{ path: string }>)[0]!.path).toBe(
      join(dir.path, 'docs', 'router.txt'),
    );

    const status = quire('models', 'status', '--data-dir', dataDir, '--embedder', bge!.path, '--json');
    const roles = (
      JSON.parse(status.stdout) as { roles: Array<{ role: string; provider: string; model: string }> }
    ).roles;
    expect(roles.find((role) => role.role === 'embed')).toMatchObject({ provider: 'onnx', model: bge!.path });
  }, 600_000);

  it.skipIf(!e5 && !inCi)(
    'never compares vectors from another embedder',
    () => {
      expect(e5, REAL_WEIGHTS_MISSING).toBeDefined();
      const dataDir = join(dir.path, 'data');
      const run = spawnSync(
        process.execPath,
        [
          join(root, 'packages/cli/quire.mjs'),
          'search',
          'kitten dozing by the glass pane',
          '--data-dir',
          dataDir,
          '--embedder',
          e5!.path,
          '--mode',
          'dense',
          '--json',
        ],
        { cwd: root, encoding: 'utf8', env: { ...process.env, LANCEDB_LOG: 'error' }, timeout: 240_000 },
      );
      // The library's vectors came from bge: e5's query vector must not be scored against them.
      expect(run.status).not.toBe(0);
      expect(run.stderr).toMatch(
        /the library was embedded with `onnx:bge:bge-small-en-v1\.5-int8:[0-9a-f]{12}`, which is not available now/,
      );
    },
    300_000,
  );
});
