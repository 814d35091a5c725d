import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { MachineFacts } from '../../src/core/models/catalogue/recommend';
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

let ollama: OllamaStandIn;
let host: ModelHostStandIn;
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
});
afterAll(async () => {
  await Promise.all([ollama.close(), host.close()]);
});
beforeEach(async () => {
  dir = await tempDir('quire-setup-');
  ollama.models = [];
  ollama.pulled.clear();
});
afterEach(() => dir.cleanup());

function setupOn(machine: Omit<MachineFacts, 'modelsDir'>) {
  const settings = new ModelSettingsStore(dir.path, () => models.refresh());
  const models: ModelService = new ModelService({
    dataDir: dir.path,
    memory: () => MEMORY,
    candidates: () => [{ kind: 'ollama', baseUrl: ollama.baseUrl, label: 'Ollama' }],
    probe: { timeoutMs: 2000 },
    settings: () => settings.current.roles,
    hubEndpoint: host.baseUrl,
  });
  const setup = new SetupService({
    models,
    settings,
    machine: async () => ({ ...machine, modelsDir: models.modelsDir }),
    hubEndpoint: host.baseUrl,
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
