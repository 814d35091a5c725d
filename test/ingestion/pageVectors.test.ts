import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../src/core/createCore';
import { corpusDir, tempDir, withoutCorpus } from '../helpers/shared';
import { buildTinyPageEmbedder } from '../helpers/tinyPageEmbedder';

const noCorpus = withoutCorpus('page vectors of a corpus PDF');

/*
 * Page vectors as the background stage after text and page images, with the tiny ONNX page embedder
 * running in its own process: the real core, real PDFs, real LanceDB.
 */

let core: Core | undefined;
let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await core?.dispose();
  core = undefined;
  await cleanup?.();
});

async function library(): Promise<{ root: string; data: string; model: string }> {
  const dir = await tempDir('quire-page-vectors-');
  cleanup = dir.cleanup;
  const root = join(dir.path, 'lib');
  await mkdir(root);
  await copyFile(join(corpusDir, 'pdfjs/tracemonkey.pdf'), join(root, 'tracemonkey.pdf'));
  const model = join(dir.path, 'tiny-page.onnx');
  await writeFile(model, buildTinyPageEmbedder());
  return { root, data: join(dir.path, 'data'), model };
}

async function indexed(core: Core, root: string): Promise<void> {
  await core.library.addFolder(root);
  do {
    await core.library.whenIdle();
    await core.ingestion.whenIdle();
  } while (core.library.snapshot().scanning);
}

describe.skipIf(noCorpus)('page vectors in the background', () => {
  it('embeds every drawn page after the text, and page search finds them', async () => {
    const { root, data, model } = await library();
    core = createCore({
      dataDir: data,
      findModels: false,
      pageEmbedderPath: model,
      embedInBackground: true,
      workers: 1,
    });
    await core.start();
    await indexed(core, root);
    // The text is searchable as soon as ingestion is idle, whatever the page vectors are doing.
    const text = await core.index.search.chunks('trace trees', { k: 3 });
    expect(text.length).toBeGreaterThan(0);
    await core.embedding!.whenIdle();

    const counts = [...core.index.vectors.pageVectorCounts().values()];
    expect(counts).toHaveLength(1);
    expect(counts[0]!.pages).toBe(14);
    expect(counts[0]!.vectors).toBeGreaterThan(14 * 17 * 64);
    const hits = await core.index.search.pages('trace tree', { k: 5 });
    expect(hits).toHaveLength(5);
    expect(hits.every((hit) => hit.mode === 'pages' && hit.path.endsWith('tracemonkey.pdf'))).toBe(true);
    expect(hits[0]!.score).toBeGreaterThanOrEqual(hits[4]!.score);
    const role = (await core.models.refresh()).roles.find((r) => r.role === 'pageEmbed');
    expect(role).toMatchObject({ provider: 'onnx', model });
    expect(core.memory.budget.entries.some((entry) => entry.roles.includes('pageEmbed'))).toBe(true);
  }, 240_000);

  it('says why when the page embedder cannot load, and keeps the text index', async () => {
    const { root, data, model } = await library();
    const bytes = await readFile(model);
    await writeFile(model, bytes.subarray(0, 1000));
    core = createCore({
      dataDir: data,
      findModels: false,
      pageEmbedderPath: model,
      embedInBackground: true,
      workers: 1,
    });
    const problems: string[] = [];
    await core.start();
    core.embedding!.events.on('problem', (problem) => problems.push(problem.message));
    await indexed(core, root);
    await core.embedding!.whenIdle();
    expect(problems.join(' ')).toContain('not a readable ONNX model');
    const role = core.models.status().roles.find((r) => r.role === 'pageEmbed');
    expect(role?.reason).toContain(`The page embedder ${model} cannot be used`);
    expect((await core.index.search.chunks('trace trees', { k: 3 })).length).toBeGreaterThan(0);
  }, 240_000);
});
