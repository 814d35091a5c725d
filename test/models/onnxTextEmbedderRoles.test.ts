import { describe, expect, it } from 'vitest';
import { catalogueModel, fileUrl, localFileName } from '../../src/core/models/catalogue/catalogue';
import type { ModelsFolder } from '../../src/core/models/catalogue/modelsFolder';
import { localModelFor } from '../../src/core/models/catalogue/modelsFolder';
import { proposeModelSet, type MachineFacts } from '../../src/core/models/catalogue/recommend';
import type { ServerInventory } from '../../src/core/models/detection/detectServers';
import { modelLaunchOptions } from '../../src/core/models/launchOptions';
import { resolveRoles, type ResolvedRole } from '../../src/core/models/roles';

/*
 * Where an ONNX sentence embedder takes the embed role: given at launch, chosen in settings, or
 * downloaded by the setup (the light choice on small machines); and what the page role builds on it.
 */

const GiB = 1024 ** 3;
const ollama: ServerInventory = {
  kind: 'ollama',
  endpoint: 'http://127.0.0.1:11434',
  label: 'Ollama',
  reachable: true,
  error: null,
  models: ['nomic-embed-text:latest'],
  served: [{ name: 'nomic-embed-text:latest', capabilities: ['embed'], sizeBytes: null }],
};
const machine = (gib: number): MachineFacts => ({
  totalBytes: gib * GiB,
  unifiedMemory: false,
  appleSilicon: false,
  freeDiskBytes: 500e9,
  modelsDir: '/data/models',
});
const bge = catalogueModel('bge-small-en-v1.5')!;

function byRole(roles: ResolvedRole[]) {
  return Object.fromEntries(roles.map((role) => [role.role, role]));
}

describe('the ONNX text embedder in role resolution', () => {
  it('reads --embedder and QUIRE_EMBEDDER as an absolute path, the flag first', () => {
    expect(modelLaunchOptions({}, { QUIRE_EMBEDDER: '/m/bge' }).embedderPath).toBe('/m/bge');
    expect(modelLaunchOptions({ embedder: '/m/e5' }, { QUIRE_EMBEDDER: '/m/bge' }).embedderPath).toBe(
      '/m/e5',
    );
    expect(modelLaunchOptions({}, {}).embedderPath).toBeNull();
  });

  it('lets --embedder win the embed role over a server, and builds page vectors from it', () => {
    const roles = byRole(
      resolveRoles({ settings: {}, servers: [ollama], localModelPath: null, embedderPath: '/m/bge-small' }),
    );
    expect(roles.embed).toMatchObject({
      provider: 'onnx',
      model: '/m/bge-small',
      via: 'local',
      endpoint: null,
    });
    expect(roles.embed?.reason).toContain('--embedder / QUIRE_EMBEDDER');
    expect(roles.pageEmbed).toMatchObject({ provider: 'onnx', model: '/m/bge-small', via: 'segments' });
  });

  it('says why a given embedder cannot be used and goes on without it', () => {
    const roles = byRole(
      resolveRoles({
        settings: {},
        servers: [ollama],
        localModelPath: null,
        embedderPath: '/m/mystery',
        unusableModels: new Map([['/m/mystery', 'Quire cannot tell which kind of text embedder it is.']]),
      }),
    );
    expect(roles.embed).toMatchObject({ provider: 'ollama', model: 'nomic-embed-text:latest' });
    expect(roles.embed?.reason).toMatch(/^The text embedder \/m\/mystery cannot be used: Quire cannot tell/);
  });

  it('takes an ONNX folder or file chosen in settings for the embed role', () => {
    const roles = byRole(
      resolveRoles({
        settings: { embed: { model: '/data/models/bge-small-en-v1.5/model_quantized.onnx' } },
        servers: [ollama],
        localModelPath: null,
      }),
    );
    expect(roles.embed).toMatchObject({
      provider: 'onnx',
      model: '/data/models/bge-small-en-v1.5/model_quantized.onnx',
    });
    expect(roles.embed?.reason).toMatch(/^Chosen in settings/);
  });

  it('runs the downloaded light embedder from the models folder with ONNX Runtime', () => {
    const folder: ModelsFolder = {
      dir: '/data/models',
      presentFiles: new Set(bge.files.map((file) => localFileName(bge, file.fileName))),
      otherGgufs: [],
      unusable: new Map(),
    };
    const local = localModelFor('embed', folder)!;
    expect(local.path).toBe('/data/models/bge-small-en-v1.5/model_quantized.onnx');
    expect(local.runtimeReady).toBe(true);
    const roles = byRole(
      resolveRoles({ settings: {}, servers: [], localModelPath: null, localModels: { embed: local } }),
    );
    expect(roles.embed).toMatchObject({ provider: 'onnx', model: local.path, via: 'local' });
    expect(roles.embed?.reason).toContain('BGE small English v1.5');
  });
});

describe('the light embedder in the catalogue', () => {
  it('pins the int8 ONNX and its tokenizer by size and sha256, side by side in one folder', () => {
    expect(bge.runtime).toBe('onnx-text');
    expect(bge.files.map((file) => [file.kind, file.sizeBytes, file.sha256])).toEqual([
      ['weights', 34_014_426, '6c9c6101a956d62dfb5e7190c538226c0c5bb9cb27b651234b6df063ee7dbfe4'],
      ['tokenizer', 711_396, 'd241a60d5e8f04cc1b2b3e9ef7a4921b27bf526d9f6050ab90f9267a1f9e5c66'],
    ]);
    expect(fileUrl(bge.files[0]!)).toBe(
      'https://huggingface.co/Xenova/bge-small-en-v1.5/resolve/main/onnx/model_quantized.onnx',
    );
    expect(bge.files.map((file) => localFileName(bge, file.fileName))).toEqual([
      'bge-small-en-v1.5/model_quantized.onnx',
      'bge-small-en-v1.5/tokenizer.json',
    ]);
  });

  it('is proposed on a machine of 8 GB or less, and the 0.6B embedder above that', () => {
    const small = proposeModelSet(machine(8), {
      servers: [],
      folder: { dir: '/data/models', presentFiles: new Set(), otherGgufs: [], unusable: new Map() },
    });
    const embed = small.roles.find((role) => role.role === 'embed')!;
    expect(embed).toMatchObject({ modelId: 'bge-small-en-v1.5', source: 'download', runtimeReady: true });
    expect(embed.reason).toContain('light text embedding model');
    expect(embed.files.map((file) => file.sha256)).toEqual(bge.files.map((file) => file.sha256));
    expect(embed.memoryBytes).toBeLessThan(300e6);
    const large = proposeModelSet(machine(16), {
      servers: [],
      folder: { dir: '/data/models', presentFiles: new Set(), otherGgufs: [], unusable: new Map() },
    });
    expect(large.roles.find((role) => role.role === 'embed')?.modelId).toBe('qwen3-embedding-0.6b');
  });
});
