import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogueModel } from '../../src/core/models/catalogue/catalogue';
import type { ServerInventory } from '../../src/core/models/detection/detectServers';
import { ModelService } from '../../src/core/models/modelService';
import { resolveRoles, type ResolvedRole } from '../../src/core/models/roles';
import type { ChatModel } from '../../src/core/models/types';
import type { MemoryBudget } from '../../src/shared/domain/models';
import { writeTinyGguf } from '../helpers/tinyModel';
import { buildTinyProjector, writeTinyProjector } from '../helpers/tinyProjector';

const ollamaWithVision: ServerInventory = {
  kind: 'ollama',
  endpoint: 'http://127.0.0.1:11434',
  label: 'Ollama',
  reachable: true,
  error: null,
  models: ['qwen2.5vl:7b'],
  served: [{ name: 'qwen2.5vl:7b', capabilities: ['chat', 'vision'], sizeBytes: null }],
};
const vision = { modelPath: '/m/vision.gguf', projectorPath: '/m/mmproj-vision.gguf' };

function see(input: Partial<Parameters<typeof resolveRoles>[0]>): ResolvedRole {
  const roles = resolveRoles({ settings: {}, servers: [], localModelPath: null, ...input });
  return roles.find((role) => role.role === 'see')!;
}

describe('the see role', () => {
  it('runs in-process from --vision-model with its projector when no server offers one', () => {
    const role = see({ visionModel: vision });
    expect(role).toMatchObject({
      provider: 'llama',
      via: 'local',
      model: vision.modelPath,
      projectorPath: vision.projectorPath,
      supportsImages: true,
    });
    expect(role.reason).toMatch(/No server offers a vision model: runs in-process .*--vision-model/);
  });

  it('prefers a server that offers a vision model, and says where it runs', () => {
    const role = see({ visionModel: vision, servers: [ollamaWithVision] });
    expect(role).toMatchObject({ provider: 'ollama', via: 'server', model: 'qwen2.5vl:7b' });
    expect(role.reason).toContain('Ollama at 127.0.0.1:11434');
  });

  it('runs the downloaded catalogue model with its projector from the models folder', () => {
    const local = {
      path: '/data/models/Qwen2.5-VL-3B-Instruct-Q4_K_M.gguf',
      projectorPath: '/data/models/mmproj-Qwen2.5-VL-3B-Instruct-Q8_0.gguf',
      catalogue: catalogueModel('qwen2.5-vl-3b')!,
      runtimeReady: true,
    };
    const role = see({ localModels: { see: local } });
    expect(role).toMatchObject({ via: 'local', model: local.path, projectorPath: local.projectorPath });
    expect(role.reason).toContain('Qwen2.5-VL 3B');
  });

  it('says why a broken file or a full memory keeps it out, naming the file', () => {
    const broken = see({
      visionModel: vision,
      unusableModels: new Map([
        [vision.modelPath, `The projector ${vision.projectorPath} cannot be used: it is truncated.`],
      ]),
    });
    expect(broken).toMatchObject({ via: 'none', provider: null });
    expect(broken.reason).toMatch(
      /^The projector \/m\/mmproj-vision\.gguf cannot be used: it is truncated\. Until/,
    );
    const full = see({ visionModel: vision, inProcess: { allowed: false, reason: '1 GB free' } });
    expect(full.reason).toContain('does not fit in memory (1 GB free)');
  });

  it('asks for the projector of a GGUF chosen in settings without one', () => {
    const role = see({ settings: { see: { model: '/m/other-vision.gguf' } } });
    expect(role.via).toBe('none');
    expect(role.reason).toContain('needs its projector (mmproj)');
    const paired = see({ settings: { see: { model: vision.modelPath } }, visionModel: vision });
    expect(paired).toMatchObject({ via: 'local', projectorPath: vision.projectorPath });
  });
});

const MEMORY: MemoryBudget = {
  totalBytes: 16e9,
  availableBytes: 8e9,
  unifiedMemory: false,
  appHeadroomBytes: 1e9,
  entries: [],
  freeForModelsBytes: 7e9,
  notes: [],
};

describe('the models layer with a vision model given at launch', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'quire-vision-roles-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  function service(files: { modelPath: string; projectorPath: string }, loads: string[]) {
    const seeing: ChatModel = {
      id: 'stand-in',
      provider: 'llama',
      supportsImages: true,
      chat: async () => ({ text: 'seen' }),
    };
    return new ModelService({
      dataDir: dir,
      memory: () => MEMORY,
      candidates: () => [],
      visionModel: files,
      createVisionModel: async (modelPath, projectorPath) => {
        loads.push(`${modelPath} + ${projectorPath}`);
        return seeing;
      },
    });
  }

  it('hands the see role to the in-process vision model, files checked first', async () => {
    const files = { modelPath: join(dir, 'tiny.gguf'), projectorPath: join(dir, 'mmproj-tiny.gguf') };
    await writeTinyGguf(files.modelPath);
    await writeTinyProjector(files.projectorPath);
    const loads: string[] = [];
    const models = service(files, loads);
    try {
      await models.refresh();
      const model = await models.chatModel('see');
      expect(model?.supportsImages).toBe(true);
      expect(loads).toEqual([`${files.modelPath} + ${files.projectorPath}`]);
      expect(models.status().roles.find((role) => role.role === 'see')?.reason).toContain('runs in-process');
    } finally {
      await models.dispose();
    }
  });

  it('never loads a truncated projector: the status says which file and why', async () => {
    const files = { modelPath: join(dir, 'tiny2.gguf'), projectorPath: join(dir, 'mmproj-cut.gguf') };
    await writeTinyGguf(files.modelPath);
    await writeFile(files.projectorPath, buildTinyProjector().subarray(0, 30_000));
    const loads: string[] = [];
    const models = service(files, loads);
    try {
      await models.refresh();
      expect(await models.chatModel('see')).toBeNull();
      expect(loads).toEqual([]);
      const reason = models.status().roles.find((role) => role.role === 'see')?.reason;
      expect(reason).toMatch(/The projector .*mmproj-cut\.gguf cannot be used: it is truncated/);
      expect(models.problemWith(files.modelPath)).toMatch(/mmproj-cut\.gguf cannot be used/);
    } finally {
      await models.dispose();
    }
  });
});
