import { describe, expect, it } from 'vitest';
import type { ServerInventory } from '../../src/core/models/detection/detectServers';
import type { ModelCapability } from '../../src/core/models/detection/modelCapabilities';
import type { ResolvedRole } from '../../src/core/models/roles';
import { resolveRoles } from '../../src/core/models/roles';
import { catalogueModel } from '../../src/core/models/catalogue/catalogue';

function server(
  kind: 'ollama' | 'openai',
  endpoint: string,
  label: string,
  models: Array<[string, ModelCapability[]]>,
  reachable = true,
): ServerInventory {
  return {
    kind,
    endpoint,
    label,
    reachable,
    error: reachable ? null : 'Nothing is answering',
    models: models.map(([name]) => name),
    served: models.map(([name, capabilities]) => ({ name, capabilities, sizeBytes: null })),
  };
}

const ollama = server('ollama', 'http://127.0.0.1:11434', 'Ollama', [
  ['qwen3:8b', ['chat']],
  ['qwen2.5vl:7b', ['chat', 'vision']],
  ['nomic-embed-text:latest', ['embed']],
]);
const colqwen = server('openai', 'http://127.0.0.1:8888', 'mlx-embeddings-server', [
  ['vidore/colqwen2.5-v0.2', ['embed', 'multiVector']],
]);
const lmStudioDown = server('openai', 'http://127.0.0.1:1234', 'LM Studio', [], false);

function byRole(roles: ResolvedRole[]) {
  return Object.fromEntries(roles.map((role) => [role.role, role]));
}

describe('role resolution', () => {
  it('prefers running servers and says which model serves each role', () => {
    const roles = byRole(
      resolveRoles({ settings: {}, servers: [lmStudioDown, ollama, colqwen], localModelPath: null }),
    );
    expect(roles.answer).toMatchObject({ provider: 'ollama', model: 'qwen3:8b', via: 'server' });
    expect(roles.answer?.reason).toContain('Ollama at 127.0.0.1:11434');
    expect(roles.decide).toMatchObject({ provider: 'ollama', model: 'qwen3:8b' });
    expect(roles.embed).toMatchObject({ provider: 'ollama', model: 'nomic-embed-text:latest' });
    expect(roles.pageEmbed).toMatchObject({
      provider: 'openai',
      endpoint: 'http://127.0.0.1:8888',
      model: 'vidore/colqwen2.5-v0.2',
    });
    expect(roles.see).toMatchObject({ provider: 'ollama', model: 'qwen2.5vl:7b', supportsImages: true });
  });

  it('falls back to page vectors from text segments without a ColQwen server', () => {
    const roles = byRole(resolveRoles({ settings: {}, servers: [ollama], localModelPath: null }));
    expect(roles.pageEmbed).toMatchObject({
      via: 'segments',
      provider: 'ollama',
      model: 'nomic-embed-text:latest',
    });
    expect(roles.pageEmbed?.reason).toContain('line by line');
  });

  it('honours a choice in settings, and says why when it cannot', () => {
    const chosen = byRole(
      resolveRoles({
        settings: { answer: { model: 'qwen2.5vl:7b' } },
        servers: [ollama],
        localModelPath: null,
      }),
    );
    expect(chosen.answer).toMatchObject({ model: 'qwen2.5vl:7b' });
    expect(chosen.answer?.reason).toMatch(/^Chosen in settings/);
    expect(chosen.decide?.model).toBe('qwen2.5vl:7b');

    const missing = byRole(
      resolveRoles({
        settings: { answer: { model: 'llama3.3:70b' } },
        servers: [ollama],
        localModelPath: null,
      }),
    );
    expect(missing.answer?.model).toBe('qwen3:8b');
    expect(missing.answer?.reason).toMatch(
      /^`llama3.3:70b` \(chosen in settings\) is not pulled in Ollama: run `ollama pull llama3.3:70b`/,
    );
  });

  it('uses the --model GGUF for every text role when nothing else embeds', () => {
    const roles = byRole(
      resolveRoles({ settings: {}, servers: [lmStudioDown], localModelPath: '/models/qwen3-4b.gguf' }),
    );
    for (const role of ['decide', 'answer', 'embed'] as const) {
      expect(roles[role]).toMatchObject({
        provider: 'llama',
        model: '/models/qwen3-4b.gguf',
        endpoint: null,
        via: 'local',
      });
    }
    expect(roles.answer?.reason).toContain('--model');
    expect(roles.pageEmbed).toMatchObject({ provider: 'llama', via: 'segments' });
    expect(roles.see).toMatchObject({ provider: null });
  });

  it('lets --model take the chat roles even when a server runs, and leaves embeddings to the server', () => {
    const roles = byRole(resolveRoles({ settings: {}, servers: [ollama], localModelPath: '/m/x.gguf' }));
    expect(roles.answer).toMatchObject({ provider: 'llama', model: '/m/x.gguf' });
    expect(roles.decide).toMatchObject({ provider: 'llama', model: '/m/x.gguf' });
    expect(roles.embed).toMatchObject({ provider: 'ollama', model: 'nomic-embed-text:latest' });
  });

  it('uses the models folder: a downloaded chat model and embedder, each in its own file', () => {
    const chat = {
      path: '/data/models/Qwen3-4B-Q4_K_M.gguf',
      projectorPath: null,
      catalogue: catalogueModel('qwen3-4b')!,
      runtimeReady: true,
    };
    const embed = {
      path: '/data/models/Qwen3-Embedding-0.6B-Q8_0.gguf',
      projectorPath: null,
      catalogue: catalogueModel('qwen3-embedding-0.6b')!,
      runtimeReady: true,
    };
    const roles = byRole(
      resolveRoles({
        settings: {},
        servers: [],
        localModelPath: null,
        localModels: { decide: chat, answer: chat, embed },
      }),
    );
    expect(roles.answer).toMatchObject({ provider: 'llama', model: chat.path, via: 'local' });
    expect(roles.answer?.reason).toContain('downloaded by the setup');
    expect(roles.embed).toMatchObject({ provider: 'llama', model: embed.path });
    expect(roles.pageEmbed).toMatchObject({ via: 'segments', model: embed.path });
  });

  it('says plainly when a downloaded model has no runtime in this build', () => {
    const see = {
      path: '/data/models/Qwen2.5-VL-3B-Instruct-Q4_K_M.gguf',
      projectorPath: '/data/models/mmproj-Qwen2.5-VL-3B-Instruct-Q8_0.gguf',
      catalogue: catalogueModel('qwen2.5-vl-3b')!,
      runtimeReady: false,
    };
    const pages = {
      path: '/data/models/colmodernvbert/model_v2.onnx',
      projectorPath: null,
      catalogue: catalogueModel('colmodernvbert')!,
      runtimeReady: false,
    };
    const roles = byRole(
      resolveRoles({
        settings: {},
        servers: [],
        localModelPath: '/m/x.gguf',
        localModels: { see, pageEmbed: pages },
      }),
    );
    expect(roles.see).toMatchObject({ provider: null, via: 'none' });
    expect(roles.see?.reason).toContain('Qwen2.5-VL 3B is downloaded');
    expect(roles.see?.reason).toContain('cannot run it in-process yet');
    expect(roles.pageEmbed).toMatchObject({ via: 'segments' });
    expect(roles.pageEmbed?.reason).toMatch(
      /^ColModernVBERT \(ONNX\) is downloaded .* cannot run it in-process yet: page vectors are built/,
    );
  });

  it('skips the local GGUF when memory does not allow it, and says so', () => {
    const roles = byRole(
      resolveRoles({
        settings: {},
        servers: [],
        localModelPath: '/models/big.gguf',
        inProcess: { allowed: false, reason: 'it needs 9.1 GB and 3.2 GB is free' },
      }),
    );
    expect(roles.answer).toMatchObject({ provider: null });
    expect(roles.answer?.reason).toContain('it needs 9.1 GB and 3.2 GB is free');
  });

  it('says how to get a model when nothing serves a role, in the advice it is given', () => {
    const advice = (role: string) => `advice for ${role}`;
    const roles = byRole(
      resolveRoles({ settings: {}, servers: [lmStudioDown], localModelPath: null, advice }),
    );
    expect(roles.answer).toMatchObject({ provider: null, endpoint: null, model: null, via: 'none' });
    expect(roles.answer?.reason).toBe(
      'No model server is running and no chat model is set up: advice for answer',
    );
    expect(roles.embed?.reason).toContain('advice for embed');
    expect(roles.pageEmbed?.provider).toBeNull();

    const onlyChat = server('ollama', 'http://127.0.0.1:11434', 'Ollama', [['qwen3:8b', ['chat']]]);
    const partial = byRole(resolveRoles({ settings: {}, servers: [onlyChat], localModelPath: null, advice }));
    expect(partial.embed?.reason).toBe(
      'Ollama at 127.0.0.1:11434 is running but has no embedding model: advice for embed',
    );
  });

  it('names a server by its address once, not "X at X"', () => {
    const added = server('openai', 'http://127.0.0.1:9000', '127.0.0.1:9000', [['scripted-chat', ['chat']]]);
    const roles = byRole(resolveRoles({ settings: {}, servers: [added], localModelPath: null }));
    expect(roles.answer?.reason).toBe(
      'Served by 127.0.0.1:9000 (`scripted-chat`, the first chat model it lists).',
    );
  });

  it('offers no unusable GGUF, given or chosen, and says why', () => {
    const unusableModels = new Map([
      ['/m/cut.gguf', 'it is truncated: 10 bytes missing.'],
      ['/m/chosen.gguf', 'it is corrupt: bad tensor table.'],
    ]);
    const roles = byRole(
      resolveRoles({
        settings: { answer: { model: '/m/chosen.gguf' } },
        servers: [lmStudioDown],
        localModelPath: '/m/cut.gguf',
        unusableModels,
      }),
    );
    for (const role of ['decide', 'answer', 'embed'] as const) {
      expect(roles[role]).toMatchObject({ provider: null, via: 'none' });
      expect(roles[role]!.reason).toContain('/m/cut.gguf cannot be used: it is truncated');
    }
    expect(roles.answer!.reason).toContain(
      '`/m/chosen.gguf` (chosen in settings) cannot be used: it is corrupt',
    );
    const healthy = byRole(
      resolveRoles({ settings: {}, servers: [], localModelPath: '/m/ok.gguf', unusableModels }),
    );
    expect(healthy.answer).toMatchObject({ provider: 'llama', model: '/m/ok.gguf' });
    // A broken --model does not hide what else can serve the role.
    const withServer = byRole(
      resolveRoles({ settings: {}, servers: [ollama], localModelPath: '/m/cut.gguf', unusableModels }),
    );
    expect(withServer.answer).toMatchObject({ provider: 'ollama', model: 'qwen3:8b' });
    expect(withServer.answer!.reason).toMatch(/^The GGUF \/m\/cut\.gguf cannot be used: it is truncated/);
  });
});

describe('the in-process ONNX page embedder', () => {
  it('embeds page images when no ColQwen server runs, and a server still wins when there is one', () => {
    const local = byRole(
      resolveRoles({
        settings: {},
        servers: [ollama],
        localModelPath: null,
        pageEmbedderPath: '/m/page.onnx',
      }),
    );
    expect(local.pageEmbed).toMatchObject({ provider: 'onnx', via: 'local', model: '/m/page.onnx' });
    expect(local.pageEmbed?.reason).toContain('embedded in-process');
    const served = byRole(
      resolveRoles({
        settings: {},
        servers: [colqwen],
        localModelPath: null,
        pageEmbedderPath: '/m/page.onnx',
      }),
    );
    expect(served.pageEmbed).toMatchObject({ provider: 'openai', model: 'vidore/colqwen2.5-v0.2' });
  });

  it('falls back to line vectors and says why when the ONNX file cannot be used', () => {
    const roles = byRole(
      resolveRoles({
        settings: {},
        servers: [ollama],
        localModelPath: null,
        pageEmbedderPath: '/m/page.onnx',
        unusableModels: new Map([['/m/page.onnx', 'it is truncated']]),
      }),
    );
    expect(roles.pageEmbed).toMatchObject({ via: 'segments' });
    expect(roles.pageEmbed?.reason).toMatch(
      /^The page embedder \/m\/page\.onnx cannot be used: it is truncated; no multi-vector/,
    );
  });

  it('takes an ONNX file chosen in settings for page search only', () => {
    const roles = byRole(
      resolveRoles({
        settings: { pageEmbed: { model: '/m/chosen.onnx' }, answer: { model: '/m/chosen.onnx' } },
        servers: [],
        localModelPath: null,
      }),
    );
    expect(roles.pageEmbed).toMatchObject({ provider: 'onnx', model: '/m/chosen.onnx' });
    expect(roles.answer?.reason).toContain('an ONNX file is a page embedder');
  });
});
