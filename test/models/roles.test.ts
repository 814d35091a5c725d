import { describe, expect, it } from 'vitest';
import type { ServerInventory } from '../../src/core/models/detection/detectServers';
import type { ModelCapability } from '../../src/core/models/detection/modelCapabilities';
import type { ResolvedRole } from '../../src/core/models/roles';
import { resolveRoles } from '../../src/core/models/roles';

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
      resolveRoles({ settings: {}, servers: [lmStudioDown, ollama, colqwen], localModelPath: '/m/x.gguf' }),
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

  it('uses a local GGUF for every text role when no server runs', () => {
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
    expect(roles.pageEmbed).toMatchObject({ provider: 'llama', via: 'segments' });
    expect(roles.see).toMatchObject({ provider: null });
    expect(roles.see?.reason).toContain('ollama pull qwen2.5vl:7b');
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

  it('says how to get a model when nothing serves a role', () => {
    const roles = byRole(resolveRoles({ settings: {}, servers: [lmStudioDown], localModelPath: null }));
    expect(roles.answer).toMatchObject({ provider: null, endpoint: null, model: null, via: 'none' });
    expect(roles.answer?.reason).toContain('ollama pull qwen3:8b');
    expect(roles.answer?.reason).toContain('mlx_lm.server');
    expect(roles.answer?.reason).toContain('let Quire download a GGUF');
    expect(roles.embed?.reason).toContain('ollama pull nomic-embed-text');
    expect(roles.pageEmbed?.provider).toBeNull();

    const onlyChat = server('ollama', 'http://127.0.0.1:11434', 'Ollama', [['qwen3:8b', ['chat']]]);
    const partial = byRole(resolveRoles({ settings: {}, servers: [onlyChat], localModelPath: null }));
    expect(partial.embed?.reason).toMatch(
      /^Ollama at 127\.0\.0\.1:11434 is running but has no embedding model \(run `ollama pull nomic-embed-text`\)/,
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
    expect(roles.answer!.reason).toMatch(
      /^`\/m\/chosen\.gguf` \(chosen in settings\) cannot be used: it is corrupt/,
    );
    const healthy = byRole(
      resolveRoles({ settings: {}, servers: [], localModelPath: '/m/ok.gguf', unusableModels }),
    );
    expect(healthy.answer).toMatchObject({ provider: 'llama', model: '/m/ok.gguf' });
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
