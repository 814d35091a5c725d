import { describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { catalogueTable, noModelHelp, roleAdvice } from '../../src/core/models/catalogue/advice';
import { CATALOGUE } from '../../src/core/models/catalogue/catalogue';
import type { ModelsFolder } from '../../src/core/models/catalogue/modelsFolder';
import { proposeModelSet, type MachineFacts } from '../../src/core/models/catalogue/recommend';
import type { ServerInventory } from '../../src/core/models/detection/detectServers';
import { SetupProposal } from '../../src/shared/domain/models';

const GiB = 1024 ** 3;
const empty: ModelsFolder = {
  dir: '/data/models',
  presentFiles: new Set(),
  otherGgufs: [],
  unusable: new Map(),
};
const mac = (gib: number): MachineFacts => ({
  totalBytes: gib * GiB,
  unifiedMemory: true,
  appleSilicon: true,
  freeDiskBytes: 500e9,
  modelsDir: '/data/models',
});
const linux = (gib: number): MachineFacts => ({ ...mac(gib), unifiedMemory: false, appleSilicon: false });
const ollama = (models: Array<[string, Array<'chat' | 'embed' | 'vision'>]>): ServerInventory => ({
  kind: 'ollama',
  endpoint: 'http://127.0.0.1:11434',
  label: 'Ollama',
  reachable: true,
  error: null,
  models: models.map(([name]) => name),
  served: models.map(([name, capabilities]) => ({ name, capabilities, sizeBytes: null })),
});

function byRole(proposal: SetupProposal) {
  return Object.fromEntries(proposal.roles.map((role) => [role.role, role]));
}

describe('the proposed model set', () => {
  it('covers every role with pinned files, sizes and a sha256 field, and totals each model once', () => {
    const proposal = proposeModelSet(linux(24), { servers: [], folder: empty });
    expect(() => SetupProposal.parse(proposal)).not.toThrow();
    const roles = byRole(proposal);
    expect(Object.keys(roles)).toEqual(['decide', 'answer', 'embed', 'pageEmbed', 'see', 'rerank']);
    for (const role of proposal.roles) {
      expect(role.source).toBe('download');
      expect(role.files.length).toBeGreaterThan(0);
      for (const file of role.files) {
        expect(file.sizeBytes).toBeGreaterThan(1e6);
        expect(file.sha256 === null || /^[0-9a-f]{64}$/.test(file.sha256)).toBe(true);
        expect(file.url).toBe(
          `https://huggingface.co/${file.repository}/resolve/${file.revision ?? 'main'}/${file.fileName}`,
        );
      }
    }
    // decide and answer share one model: its download and memory count once.
    expect(roles.decide?.modelId).toBe(roles.answer?.modelId);
    const once = ['answer', 'embed', 'pageEmbed', 'see', 'rerank'].reduce(
      (sum, role) => sum + (roles[role]?.downloadBytes ?? 0),
      0,
    );
    expect(proposal.totals.downloadBytes).toBe(once);
    expect(proposal.totals.peakMemoryBytes).toBeGreaterThan(proposal.totals.memoryBytes);
    // The vision model runs in-process (llama.cpp with image input in its own process).
    expect(roles.see?.runtimeReady).toBe(true);
    expect(roles.see?.reason).not.toContain('cannot run it');
    expect(roles.answer?.runtimeReady).toBe(true);
    expect(roles.pageEmbed?.runtimeReady).toBe(true);
  });

  it('scales the chat model with the machine: memory, and Metal or the CPU', () => {
    expect(byRole(proposeModelSet(mac(8), { servers: [], folder: empty })).answer?.modelId).toBe(
      'qwen3-1.7b',
    );
    expect(byRole(proposeModelSet(mac(16), { servers: [], folder: empty })).answer?.modelId).toBe('qwen3-8b');
    const cpu = byRole(proposeModelSet(linux(24), { servers: [], folder: empty })).answer;
    expect(cpu?.modelId).toBe('qwen3-4b');
    expect(cpu?.reason).toContain('with no GPU acceleration');
  });

  it('offers a user who runs Ollama the same models through ollama pull, and uses what it already serves', () => {
    const roles = byRole(
      proposeModelSet(mac(16), { servers: [ollama([['qwen2.5vl:3b', ['chat', 'vision']]])], folder: empty }),
    );
    expect(roles.embed).toMatchObject({ source: 'ollama', ollamaModel: 'qwen3-embedding:0.6b', files: [] });
    expect(roles.see).toMatchObject({ source: 'server', modelId: 'qwen2.5vl:3b', downloadBytes: 0 });
    // The chat role picks up the served vision model too: it chats, so nothing needs pulling.
    expect(roles.answer?.source).toBe('server');
    // Ollama cannot serve the page embedder: it downloads as a file.
    expect(roles.pageEmbed?.source).toBe('download');

    const onlyEmbed = byRole(
      proposeModelSet(mac(16), { servers: [ollama([['nomic-embed-text', ['embed']]])], folder: empty }),
    );
    expect(onlyEmbed.answer).toMatchObject({ source: 'ollama', ollamaModel: 'qwen3:8b' });
    expect(onlyEmbed.embed).toMatchObject({ source: 'server', modelId: 'nomic-embed-text' });
  });

  it('counts what is already in the models folder: downloaded files and GGUFs put there', () => {
    const folder: ModelsFolder = {
      dir: '/data/models',
      presentFiles: new Set(['Qwen3-Embedding-0.6B-Q8_0.gguf']),
      otherGgufs: ['my-llama.gguf'],
      unusable: new Map(),
    };
    const roles = byRole(proposeModelSet(linux(24), { servers: [], folder }));
    expect(roles.embed).toMatchObject({ source: 'present', downloadBytes: 0 });
    expect(roles.embed?.files.every((file) => file.present)).toBe(true);
    expect(roles.answer).toMatchObject({ source: 'present', label: 'my-llama.gguf', memoryBytes: null });
  });

  it('says when the downloads do not fit on the disk', () => {
    const proposal = proposeModelSet({ ...linux(24), freeDiskBytes: 1e9 }, { servers: [], folder: empty });
    expect(proposal.totals.fitsOnDisk).toBe(false);
    expect(proposal.notes.join(' ')).toMatch(/The downloads need .* and 1.0 GB is free/);
  });

  it('advises the same model in status messages and the no-model help as it proposes', () => {
    const machine = linux(24);
    const picked = byRole(proposeModelSet(machine, { servers: [], folder: empty }));
    expect(roleAdvice('answer', machine, '/data/models')).toContain(`ollama pull ${'qwen3:4b'}`);
    expect(picked.answer?.label).toBe('Qwen3 4B');
    expect(noModelHelp(machine, '/data/models')).toContain('ollama pull qwen3:4b');
    expect(noModelHelp(mac(16), '/data/models')).toContain('ollama pull qwen3:8b');
  });

  it('pins a sha256 only as a 64-digit hex from a named source', () => {
    for (const model of CATALOGUE) {
      expect(model.quality.note).toMatch(/\d/);
      for (const file of model.files) {
        expect(file.sha256 === null || /^[0-9a-f]{64}$/.test(file.sha256)).toBe(true);
        expect(file.source.length).toBeGreaterThan(10);
      }
    }
  });

  it('is shown in the README exactly as the catalogue has it', async () => {
    const readme = await readFile(join(import.meta.dirname, '..', '..', 'README.md'), 'utf8');
    expect(readme).toContain(catalogueTable());
  });
});
