import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { MachineFacts } from '../../src/core/models/catalogue/recommend';
import type { OcrModelSource } from '../../src/core/models/downloads/catalogueDownloads';
import { OCR_MODEL_REVISION } from '../../src/core/models/catalogue/ocrModels';
import { ModelService } from '../../src/core/models/modelService';
import { ModelSettingsStore } from '../../src/core/models/modelSettingsStore';
import { SetupService } from '../../src/core/models/setup/setupService';
import type { MemoryBudget } from '../../src/shared/domain/models';
import { tempDir } from '../helpers/shared';
import { startModelHostStandIn, type ModelHostStandIn } from '../standins/modelHostStandIn';
import { startOllamaStandIn, type OllamaStandIn } from '../standins/ollamaStandIn';

const GiB = 1024 ** 3;
const MEMORY: MemoryBudget = {
  totalBytes: 24 * GiB,
  availableBytes: 20 * GiB,
  unifiedMemory: false,
  appHeadroomBytes: 3 * GiB,
  entries: [],
  freeForModelsBytes: 17 * GiB,
  notes: [],
};

// Debian's tesseract-ocr-eng: byte-identical to the pinned fast English model, so it stands in for GitHub's file.
const DEBIAN_ENG = '/usr/share/tesseract-ocr/5/tessdata/eng.traineddata';
const haveDebian = existsSync(DEBIAN_ENG);
if (!haveDebian)
  console.log(
    `The OCR model download in setup is skipped: no ${DEBIAN_ENG} (apt-get install tesseract-ocr-eng).`,
  );

let ollama: OllamaStandIn;
let host: ModelHostStandIn;
let github: ModelHostStandIn;
let dir: { path: string; cleanup: () => Promise<void> };

beforeAll(async () => {
  ollama = await startOllamaStandIn([]);
  for (const name of ['qwen3:4b', 'qwen3-embedding:0.6b']) {
    ollama.library.set(name, {
      model: {
        name,
        capabilities: name.includes('embedding') ? ['embedding'] : ['completion'],
        ...(name.includes('embedding') ? { embeddingLength: 64 } : {}),
      },
      layers: [200_000],
      stepBytes: 50_000,
    });
  }
  // The page embedder's weights are there, but one of the files beside them is missing: that download fails.
  host = await startModelHostStandIn([
    { path: 'Qdrant/colmodernvbert/resolve/main/model_v2.onnx', bytes: Buffer.alloc(300_000, 7) },
    { path: 'Qdrant/colmodernvbert/resolve/main/config.json', bytes: Buffer.from('{}\n'), storage: 'git' },
  ]);
  github = await startModelHostStandIn(
    haveDebian
      ? [
          {
            path: `tesseract-ocr/tessdata_fast/${OCR_MODEL_REVISION}/eng.traineddata`,
            bytes: await readFile(DEBIAN_ENG),
            storage: 'raw',
          },
        ]
      : [],
  );
});
afterAll(async () => {
  await Promise.all([ollama.close(), host.close(), github.close()]);
});
beforeEach(async () => {
  dir = await tempDir('quire-setup-');
  ollama.models = [];
  ollama.pulled.clear();
});
afterEach(() => dir.cleanup());

function setupOn(machine: Omit<MachineFacts, 'modelsDir'>, ocrModels?: OcrModelSource) {
  const settings = new ModelSettingsStore(dir.path, () => models.refresh());
  const models: ModelService = new ModelService({
    dataDir: dir.path,
    memory: () => MEMORY,
    candidates: () => [{ kind: 'ollama', baseUrl: ollama.baseUrl, label: 'Ollama' }],
    probe: { timeoutMs: 2000 },
    settings: () => settings.current.roles,
    hubEndpoint: host.baseUrl,
    ocrModels,
  });
  const setup = new SetupService({
    models,
    settings,
    machine: async () => ({ ...machine, modelsDir: models.modelsDir }),
    hubEndpoint: host.baseUrl,
    ocrModels,
  });
  return { models, settings, setup };
}

describe('the setup', () => {
  it('pulls through Ollama, and keeps what arrived when another download fails', async () => {
    const { models, settings, setup } = setupOn({
      totalBytes: 24 * GiB,
      unifiedMemory: false,
      appleSilicon: false,
      freeDiskBytes: 500e9,
    });
    await settings.load();
    const proposal = await setup.propose();
    const byRole = Object.fromEntries(proposal.roles.map((role) => [role.role, role]));
    expect(byRole.answer).toMatchObject({ source: 'ollama', ollamaModel: 'qwen3:4b' });
    expect(byRole.embed).toMatchObject({ source: 'ollama', ollamaModel: 'qwen3-embedding:0.6b' });
    expect(byRole.pageEmbed).toMatchObject({ source: 'download', runtimeReady: true });

    const run = setup.start(proposal, ['decide', 'answer', 'embed', 'pageEmbed']);
    const result = await run.done;
    expect(result.ok).toBe(false);
    expect(result.failed.map((download) => download.id)).toEqual(
      expect.arrayContaining(['colmodernvbert/tokenizer.json']),
    );
    expect(result.failed.every((download) => download.id.startsWith('colmodernvbert/'))).toBe(true);
    // The pulls finished: the chat and embedding models are used, and saved as the choice per role.
    expect(ollama.models.map((model) => model.name).sort()).toEqual(['qwen3-embedding:0.6b', 'qwen3:4b']);
    expect(settings.current.roles.answer).toEqual({ model: 'qwen3:4b', endpoint: ollama.baseUrl });
    expect(settings.current.roles.embed).toEqual({ model: 'qwen3-embedding:0.6b', endpoint: ollama.baseUrl });
    expect(settings.current.roles.pageEmbed).toBeUndefined();
    const roles = Object.fromEntries(models.status().roles.map((role) => [role.role, role]));
    expect(roles.answer).toMatchObject({ provider: 'ollama', model: 'qwen3:4b' });
    expect(roles.answer?.reason).toMatch(/^Chosen in settings/);
    expect(roles.embed).toMatchObject({ provider: 'ollama', model: 'qwen3-embedding:0.6b' });
    await models.dispose();
  });
});

describe("the setup's OCR model", () => {
  const machine = { totalBytes: 24 * GiB, unifiedMemory: false, appleSilicon: false, freeDiskBytes: 500e9 };

  it('proposes the fast model for the OCR languages in use that Quire pins, in the totals', async () => {
    let languages = ['eng', 'fra', 'nld'];
    const ocrModels = { languages: () => languages, endpoint: github.baseUrl };
    const { models, settings, setup } = setupOn(machine, ocrModels);
    await settings.load();
    const proposal = await setup.propose();
    const ocr = proposal.roles.find((role) => role.role === 'ocr');
    expect(ocr).toMatchObject({
      modelId: 'tesseract-fast',
      label: 'Tesseract fast model (English, French)',
      source: 'download',
      downloadBytes: 4_113_088 + 1_130_365,
      memoryBytes: null,
      licence: 'Apache-2.0',
      runtimeReady: true,
    });
    expect(ocr!.files.map((file) => [file.fileName, file.sizeBytes, file.sha256, file.present])).toEqual([
      [
        'eng.traineddata',
        4_113_088,
        '7d4322bd2a7749724879683fc3912cb542f19906c83bcc1a52132556427170b2',
        false,
      ],
      [
        'fra.traineddata',
        1_130_365,
        'ced037562e8c80c13122dece28dd477d399af80911a28791a66a63ac1e3445ca',
        false,
      ],
    ]);
    expect(ocr!.files[0]!.url).toBe(
      `${github.baseUrl}/tesseract-ocr/tessdata_fast/${OCR_MODEL_REVISION}/eng.traineddata`,
    );
    // Dutch alone has no fast model Quire pins: no row, and the total is the rest's.
    languages = ['nld'];
    const withoutOcr = await setup.propose();
    expect(withoutOcr.roles.map((role) => role.role)).not.toContain('ocr');
    expect(proposal.totals.downloadBytes).toBe(withoutOcr.totals.downloadBytes + ocr!.downloadBytes);
    await models.dispose();
  });

  it.skipIf(!haveDebian)(
    'fetches it, saves no role choice for it, and finds it there next time',
    async () => {
      const { models, settings, setup } = setupOn(machine, {
        languages: () => ['eng'],
        endpoint: github.baseUrl,
      });
      await settings.load();
      const proposal = await setup.propose();
      const result = await setup.start(proposal, ['ocr']).done;
      expect(result).toMatchObject({ ok: true, failed: [], choices: {} });
      expect(settings.current.roles).toEqual({});
      const again = (await setup.propose()).roles.find((role) => role.role === 'ocr');
      expect(again).toMatchObject({ source: 'present', downloadBytes: 0 });
      await models.dispose();
    },
  );
});
