import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../src/core/createCore';
import { OCR_MODEL_REVISION } from '../../src/core/models/catalogue/ocrModels';
import { OcrSettingsStore } from '../../src/core/ingestion/ocrSettingsStore';
import type { OcrSettingsView } from '../../src/shared/domain/library';
import type { PageImage } from '../../src/shared/domain/search';
import { corpusDir, tempDir, withoutCorpus } from '../helpers/shared';
import { startModelHostStandIn } from '../standins/modelHostStandIn';

// Debian's tesseract-ocr-eng is byte-identical to the pinned tessdata_fast English model: it stands
// in for the download (.ci/run installs it for the OCR bench's CLI baseline).
const DEBIAN_ENG = '/usr/share/tesseract-ocr/5/tessdata/eng.traineddata';
const haveDebian = existsSync(DEBIAN_ENG);
if (!haveDebian)
  console.log(
    `Reading with the fast model is skipped: no ${DEBIAN_ENG} (apt-get install tesseract-ocr-eng).`,
  );

const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function call<T>(core: Core, name: Parameters<Core['dispatch']>[0], input: unknown): Promise<T> {
  const result = await core.dispatch(name, input as never);
  if (!result.ok) throw new Error(result.error.message);
  return result.value as T;
}

/** OCR settings in a data folder of their own, with its models folder, and the changes they announce. */
async function settingsStoreWithModelsFolder() {
  const data = await tempDir();
  cleanups.push(data.cleanup);
  const changes: unknown[] = [];
  const store = new OcrSettingsStore(
    data.path,
    false,
    (settings) => changes.push(settings),
    join(data.path, 'models'),
  );
  await store.load();
  return { data, changes, store };
}

describe('which Tesseract model reads pages', () => {
  it('says the packaged model reads while the fast one is missing or is not the pinned file', async () => {
    const { data, changes, store } = await settingsStoreWithModelsFolder();
    expect(store.fastModelDir).toBeNull();
    expect(store.key).toEqual({ engine: 'tesseract', languages: ['eng'] });
    expect(store.view().model).toEqual({
      fast: false,
      description:
        'Pages are read with the model packaged with Quire (slower than the fast one): the fast model for English is not downloaded (Models, set up).',
    });
    // A file of the pinned size that is not the pinned file is never read.
    await mkdir(join(data.path, 'models', 'tesseract-fast'), { recursive: true });
    await writeFile(join(data.path, 'models', 'tesseract-fast', 'eng.traineddata'), Buffer.alloc(4_113_088));
    await store.checkModels();
    expect(store.key.engine).toBe('tesseract');
    expect(store.view().model.fast).toBe(false);
    expect(changes).toEqual([]);
  });

  it.skipIf(!haveDebian)(
    'takes the fast model once it is in the models folder, for the languages it covers, and says so',
    async () => {
      const { data, changes, store } = await settingsStoreWithModelsFolder();
      await mkdir(join(data.path, 'models', 'tesseract-fast'), { recursive: true });
      await copyFile(DEBIAN_ENG, join(data.path, 'models', 'tesseract-fast', 'eng.traineddata'));
      await store.checkModels();
      expect(store.fastModelDir).toBe(join(data.path, 'models', 'tesseract-fast'));
      expect(store.key).toEqual({ engine: 'tesseract-fast', languages: ['eng'] });
      expect(store.view().model).toEqual({
        fast: true,
        description: "Pages are read with Tesseract's fast model, downloaded and verified.",
      });
      // The model that reads changed: pages not read with it are queued, as after a change of settings.
      expect(changes).toHaveLength(1);
      // French is asked too and its fast model is not here: the packaged models read both.
      await store.update({ languages: ['eng', 'fra'] });
      expect(store.fastModelDir).toBeNull();
      expect(store.key.engine).toBe('tesseract');
      expect(store.view().model.description).toMatch(
        /packaged with Quire .*fast model for French is not downloaded/,
      );
    },
  );

  it.skipIf(!haveDebian || withoutCorpus('OCR with the fast model of a corpus scan'))(
    'downloads the fast model into a running core, then reads scanned pages again with it, kept apart from the packaged reading',
    async () => {
      const host = await startModelHostStandIn([
        {
          path: `tesseract-ocr/tessdata_fast/${OCR_MODEL_REVISION}/eng.traineddata`,
          bytes: await readFile(DEBIAN_ENG),
          storage: 'raw',
        },
      ]);
      cleanups.push(() => host.close());
      const folder = await tempDir();
      const data = await tempDir();
      cleanups.push(folder.cleanup, data.cleanup);
      await copyFile(join(corpusDir, 'docling', 'ocr__ocr_test.pdf'), join(folder.path, 'scan.pdf'));
      const core = createCore({
        dataDir: data.path,
        findModels: false,
        detectServers: false,
        embedInBackground: false,
        workers: 1,
        ocrModelEndpoint: host.baseUrl,
      });
      cleanups.push(() => core.dispose());
      await core.start();
      await core.library.addFolder(folder.path);
      await core.library.whenIdle();
      await core.ingestion.whenIdle();
      const [doc] = core.library.snapshot().documents;
      // OCR results are kept by content: the file's sha256.
      const contentHash = createHash('sha256')
        .update(await readFile(join(folder.path, 'scan.pdf')))
        .digest('hex');
      const page = () => call<PageImage>(core, 'pages.get', { documentId: doc!.id, page: 1 });
      expect((await page()).textSource).toMatchObject({ method: 'ocr', engine: 'tesseract' });
      const packaged = await core.ocrResults.get(contentHash, 1, { engine: 'tesseract', languages: ['eng'] });
      expect(packaged?.engine).toBe('tesseract');

      // As the Models panel's setup does: the download, then OCR takes the model it brought.
      core.models.download('tesseract-fast');
      expect((await core.models.downloadSettled('tesseract-fast/eng.traineddata')).state).toBe('done');
      await expect
        .poll(async () => (await call<OcrSettingsView>(core, 'ocr.settings', {})).model.fast, {
          timeout: 10_000,
        })
        .toBe(true);
      await core.ingestion.whenIdle();
      const read = await page();
      expect(read.textSource).toMatchObject({ method: 'ocr', engine: 'tesseract-fast', languages: ['eng'] });
      expect(read.textSource!.ocr).toMatchObject({
        engine: 'tesseract-fast',
        reason: 'missing',
        problem: null,
      });
      const fast = await core.ocrResults.get(contentHash, 1, {
        engine: 'tesseract-fast',
        languages: ['eng'],
      });
      expect(
        fast?.lines
          .flat()
          .map((word) => word[0])
          .join(' '),
      ).toContain('Docling bundles PDF document conversion');
      // The packaged model's key does not take the fast model's reading for its own.
      expect(
        await core.ocrResults.get(contentHash, 1, { engine: 'tesseract', languages: ['eng'] }),
      ).toBeNull();
    },
    300_000,
  );
});
