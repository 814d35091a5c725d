import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ServerCandidate } from '../../src/core/models/detection/detectServers';
import type { CatalogueModel } from '../../src/core/models/catalogue/catalogue';
import type { IntervalTimers, ModelServiceDeps } from '../../src/core/models/modelService';
import type { InProcessModel } from '../../src/core/models/inProcessInstances';
import { ModelService } from '../../src/core/models/modelService';
import type { MemoryBudget, ModelsStatus } from '../../src/shared/domain/models';
import { tempDir } from '../helpers/shared';
import { buildTinyGguf } from '../helpers/tinyModel';
import type { ModelHostStandIn } from '../standins/modelHostStandIn';
import { startModelHostStandIn } from '../standins/modelHostStandIn';
import type { OllamaStandIn, OllamaStandInModel } from '../standins/ollamaStandIn';
import { startOllamaStandIn } from '../standins/ollamaStandIn';
import type { OpenAIStandIn } from '../standins/openaiStandIn';
import { startOpenAIStandIn } from '../standins/openaiStandIn';

const MEMORY: MemoryBudget = {
  totalBytes: 16e9,
  availableBytes: 8e9,
  unifiedMemory: true,
  appHeadroomBytes: 1e9,
  entries: [],
  freeForModelsBytes: 7e9,
  notes: [],
};

const OLLAMA_MODELS: OllamaStandInModel[] = [
  { name: 'qwen3:8b', capabilities: ['completion'] },
  { name: 'nomic-embed-text:latest', family: 'nomic-bert', capabilities: ['embedding'], embeddingLength: 40 },
];

const TINY_GGUF = buildTinyGguf();
let ollama: OllamaStandIn;
let colqwen: OpenAIStandIn;
let host: ModelHostStandIn;
let dir: { path: string; cleanup: () => Promise<void> };

/** Timers the test fires by hand. */
function manualTimers(): IntervalTimers & { fire: () => void; cleared: boolean; everyMs: number | null } {
  let callback: (() => void) | null = null;
  const timers = {
    cleared: false,
    everyMs: null as number | null,
    setInterval(fn: () => void, ms: number) {
      callback = fn;
      timers.everyMs = ms;
      return 1;
    },
    clearInterval() {
      timers.cleared = true;
    },
    fire() {
      callback?.();
    },
  };
  return timers;
}

beforeAll(async () => {
  ollama = await startOllamaStandIn([...OLLAMA_MODELS]);
  colqwen = await startOpenAIStandIn([{ id: 'vidore/colqwen2.5-v0.2', kind: 'multiVector', dimensions: 16 }]);
  // Real GGUFs: a downloaded file is read before it is offered to any role.
  host = await startModelHostStandIn([
    { path: 'org/chat/resolve/main/chat.gguf', bytes: TINY_GGUF },
    { path: 'org/embed/resolve/main/embed.gguf', bytes: TINY_GGUF },
  ]);
});
afterAll(async () => {
  await Promise.all([ollama.close(), colqwen.close(), host.close()]);
});
beforeEach(async () => {
  dir = await tempDir('quire-models-');
  ollama.models = [...OLLAMA_MODELS];
});
afterEach(() => dir.cleanup());

function service(candidates: ServerCandidate[], extra: Partial<ModelServiceDeps> = {}) {
  const statuses: ModelsStatus[] = [];
  const timers = manualTimers();
  const models = new ModelService({
    dataDir: dir.path,
    memory: () => MEMORY,
    candidates: () => candidates,
    probe: { timeoutMs: 2000 },
    timers,
    onStatus: (status) => statuses.push(status),
    ...extra,
  });
  return { models, statuses, timers };
}

const ollamaCandidate = (): ServerCandidate => ({ kind: 'ollama', baseUrl: ollama.baseUrl, label: 'Ollama' });
const colqwenCandidate = (): ServerCandidate => ({
  kind: 'openai',
  baseUrl: colqwen.baseUrl,
  label: 'mlx-embeddings-server',
});

describe('ModelService', () => {
  it('detects servers, resolves roles, and serves chat and embeddings from them', async () => {
    const { models, statuses, timers } = service([ollamaCandidate(), colqwenCandidate()]);
    const status = await models.start();
    expect(timers.everyMs).toBe(180_000);
    expect(statuses).toHaveLength(1);
    expect(status.memory).toBe(MEMORY);
    expect(status.servers.map((server) => [server.kind, server.reachable, server.models.length])).toEqual([
      ['ollama', true, 2],
      ['openai', true, 1],
    ]);
    expect(status.roles.map((role) => [role.role, role.provider, role.model])).toEqual([
      ['decide', 'ollama', 'qwen3:8b'],
      ['answer', 'ollama', 'qwen3:8b'],
      ['embed', 'ollama', 'nomic-embed-text:latest'],
      ['pageEmbed', 'openai', 'vidore/colqwen2.5-v0.2'],
      ['see', null, null],
    ]);

    const chat = await models.chatModel('answer');
    expect(chat?.id).toBe('ollama:qwen3:8b');
    expect((await chat!.chat({ messages: [{ role: 'user', content: 'hi' }] })).text).toBe(
      'Hello from the stand-in.',
    );
    expect(await models.chatModel('answer')).toBe(chat);
    expect(await models.chatModel('see')).toBeNull();

    const text = await models.textEmbedder();
    expect(text?.dimensions).toBe(40);
    const page = await models.pageEmbedder();
    expect(page?.id).toBe('openai-multi:vidore/colqwen2.5-v0.2');

    ollama.behaviour = { running: [{ name: 'qwen3:8b', sizeBytes: 6e9, vramBytes: 4e9 }] };
    // Ollama says what it holds (/api/ps); the other server holds the page model but says nothing.
    expect(await models.loadedServerModels()).toEqual([
      { endpoint: ollama.baseUrl, server: 'Ollama', name: 'qwen3:8b', sizeBytes: 6e9, vramBytes: 4e9 },
      {
        endpoint: colqwen.baseUrl,
        server: 'mlx-embeddings-server',
        name: 'vidore/colqwen2.5-v0.2',
        sizeBytes: null,
        vramBytes: null,
      },
    ]);
    ollama.behaviour = {};
    models.stop();
    expect(timers.cleared).toBe(true);
  });

  it('builds page vectors from the text embedder when no ColQwen server runs', async () => {
    const { models } = service([ollamaCandidate()]);
    await models.start();
    const page = await models.pageEmbedder();
    expect(page?.id).toBe('segments(ollama:nomic-embed-text:latest)');
    expect(
      await page!.embedPage({ segments: ['A line long enough to be its own segment on the page.'] }),
    ).toHaveLength(1);
    models.stop();
  });

  it('notices changes on the next periodic detection and swaps the model', async () => {
    const { models, statuses, timers } = service([ollamaCandidate()]);
    await models.start();
    expect((await models.chatModel('answer'))?.id).toBe('ollama:qwen3:8b');

    ollama.models = [{ name: 'llama3.2:3b', capabilities: ['completion'] }, ...OLLAMA_MODELS.slice(1)];
    timers.fire();
    await expect.poll(() => statuses.length).toBe(2);
    expect(statuses[1]?.roles.find((role) => role.role === 'answer')?.model).toBe('llama3.2:3b');
    expect((await models.chatModel('answer'))?.id).toBe('ollama:llama3.2:3b');
    models.stop();
  });

  it('loads a local GGUF once for every text role when no server runs', async () => {
    const loads: string[] = [];
    const local: InProcessModel = {
      chat: {
        id: 'llama:/m/tiny.gguf',
        provider: 'llama',
        supportsImages: false,
        chat: async () => ({ text: 'local' }),
      },
      embedder: {
        id: 'llama:/m/tiny.gguf',
        dimensions: 8,
        embed: async (texts) => texts.map(() => new Float32Array(8).fill(1)),
      },
    };
    const { models } = service([{ kind: 'ollama', baseUrl: 'http://127.0.0.1:9', label: 'Ollama' }], {
      localModelPath: '/m/tiny.gguf',
      createLocalModel: async (path) => {
        loads.push(path);
        return local;
      },
    });
    const status = await models.start();
    expect(status.servers[0]?.reachable).toBe(false);
    expect(status.roles.find((role) => role.role === 'answer')).toMatchObject({
      provider: 'llama',
      model: '/m/tiny.gguf',
    });
    expect(await models.chatModel('decide')).toBe(local.chat);
    expect(await models.chatModel('answer')).toBe(local.chat);
    expect(await models.textEmbedder()).toBe(local.embedder);
    expect((await models.pageEmbedder())?.id).toBe('segments(llama:/m/tiny.gguf)');
    expect(loads).toEqual(['/m/tiny.gguf']);
    models.stop();
  });

  it('downloads catalogue models, verifies them, and serves chat and embeddings from two in-process models', async () => {
    const model = (
      id: string,
      role: 'answer' | 'embed',
      repository: string,
      fileName: string,
      bytes: number,
    ) =>
      ({
        id,
        label: id,
        roles: role === 'answer' ? ['decide', 'answer'] : ['embed'],
        strength: 1,
        licence: 'Apache-2.0',
        quality: { note: 'test', source: 'test' },
        runtime: 'llama',
        files: [
          {
            kind: 'weights',
            repository,
            revision: null,
            fileName,
            sizeBytes: bytes,
            sizeExact: true,
            sha256: null,
            source: 'test',
          },
        ],
        companionFiles: [],
        ollama: null,
        contextSize: 512,
        kvCacheBytesPerToken: 0,
        workingBytes: 0,
      }) satisfies CatalogueModel;
    const downloads: string[] = [];
    const loads: string[] = [];
    const { models, statuses } = service([], {
      catalogue: [
        model('tiny-chat', 'answer', 'org/chat', 'chat.gguf', TINY_GGUF.length),
        model('tiny-embed', 'embed', 'org/embed', 'embed.gguf', TINY_GGUF.length),
      ],
      hubEndpoint: host.baseUrl,
      onDownload: (progress) => downloads.push(progress.state),
      createLocalModel: async (path) => {
        loads.push(path);
        return {
          chat: {
            id: `llama:${path}`,
            provider: 'llama',
            supportsImages: false,
            chat: async () => ({ text: '' }),
          },
          embedder: { id: `llama:${path}`, dimensions: 8, embed: async () => [] },
        };
      },
    });
    await models.start();
    expect(models.status().roles.find((role) => role.role === 'answer')?.provider).toBeNull();
    expect(() => models.download('missing-model')).toThrow(/no download called missing-model/);

    models.download('tiny-chat');
    models.download('tiny-embed');
    expect(await models.downloadSettled('tiny-chat/chat.gguf')).toMatchObject({
      state: 'done',
      bytesDone: TINY_GGUF.length,
    });
    expect(await models.downloadSettled('tiny-embed/embed.gguf')).toMatchObject({
      state: 'done',
      bytesDone: TINY_GGUF.length,
    });
    expect(downloads[0]).toBe('downloading');
    // Each finished download re-resolves the roles: wait for the status that has seen both.
    const providerOf = (name: string) => statuses.at(-1)?.roles.find((role) => role.role === name)?.provider;
    await expect
      .poll(() => [providerOf('answer'), providerOf('embed')], { timeout: 10_000 })
      .toEqual(['llama', 'llama']);
    const roles = Object.fromEntries(statuses.at(-1)!.roles.map((role) => [role.role, role]));
    expect(roles.answer?.model, JSON.stringify(statuses.at(-1)!.roles)).toMatch(/models\/chat\.gguf$/);
    expect(roles.embed?.model).toMatch(/models\/embed\.gguf$/);
    expect(roles.answer?.reason).toContain('tiny-chat, downloaded by the setup');
    expect((await models.chatModel('answer'))?.id).toMatch(/chat\.gguf$/);
    expect((await models.textEmbedder())?.id).toMatch(/embed\.gguf$/);
    expect(loads.map((path) => path.split('/').at(-1))).toEqual(['chat.gguf', 'embed.gguf']);
    await models.dispose();
  });
});
