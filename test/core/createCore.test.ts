import { afterEach, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../src/core/createCore';
import type { MemoryBudget } from '../../src/shared/domain/models';
import { tempDir } from '../helpers/shared';
import { startOllamaStandIn, type OllamaStandIn } from '../standins/ollamaStandIn';

let core: Core | undefined;
let ollama: OllamaStandIn | undefined;
let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await core?.dispose();
  await ollama?.close();
  await cleanup?.();
});

describe('the composition root', () => {
  it('serves every role from a server the user added and counts what it holds in the memory budget', async () => {
    ollama = await startOllamaStandIn(
      [
        { name: 'qwen3:8b', family: 'qwen3', capabilities: ['completion'], sizeBytes: 5e9 },
        { name: 'nomic-embed-text', capabilities: ['embedding'], embeddingLength: 8 },
      ],
      { running: [{ name: 'qwen3:8b', sizeBytes: 6_000_000_000, vramBytes: 0 }] },
    );
    const dir = await tempDir();
    cleanup = dir.cleanup;
    core = createCore({ dataDir: dir.path, detectServers: false, servers: [ollama.baseUrl], ingest: false });
    const budgets: MemoryBudget[] = [];
    core.events.on('memory.onBudget', (budget) => budgets.push(budget));
    await core.start();

    const status = await core.dispatch('models.status', {});
    if (!status.ok) throw new Error(status.error.message);
    const roles = Object.fromEntries(
      (status.value as { roles: Array<{ role: string; model: string | null }> }).roles.map((r) => [
        r.role,
        r.model,
      ]),
    );
    expect(roles).toMatchObject({ decide: 'qwen3:8b', answer: 'qwen3:8b', embed: 'nomic-embed-text' });

    await expect
      .poll(() =>
        core!.memory.budget.entries.filter((entry) => entry.external).map((entry) => entry.weightsBytes),
      )
      .toEqual([6_000_000_000]);
    expect(budgets.at(-1)?.entries.some((entry) => entry.label.includes('qwen3:8b'))).toBe(true);
  });

  it('keeps the user’s model choices and servers across restarts and resolves roles by them', async () => {
    ollama = await startOllamaStandIn([
      { name: 'qwen3:8b', capabilities: ['completion'] },
      { name: 'llama3.2:3b', capabilities: ['completion'] },
    ]);
    const dir = await tempDir();
    cleanup = dir.cleanup;
    core = createCore({ dataDir: dir.path, detectServers: false, ingest: false });
    await core.start();
    const roleOf = async (role: string) => {
      const status = await core!.dispatch('models.status', {});
      if (!status.ok) throw new Error(status.error.message);
      return (
        status.value as { roles: Array<{ role: string; model: string | null; reason: string }> }
      ).roles.find((r) => r.role === role)!;
    };
    expect((await roleOf('answer')).model).toBeNull();

    expect(await core.dispatch('models.setServers', { servers: [`${ollama.baseUrl}/`] })).toMatchObject({
      ok: true,
      value: { servers: [ollama.baseUrl] },
    });
    const automatic = (await roleOf('answer')).model!;
    expect(['qwen3:8b', 'llama3.2:3b']).toContain(automatic);
    const other = automatic === 'qwen3:8b' ? 'llama3.2:3b' : 'qwen3:8b';
    await core.dispatch('models.chooseRole', { role: 'answer', choice: { model: other } });
    expect(await roleOf('answer')).toMatchObject({
      model: other,
      reason: expect.stringContaining('settings'),
    });
    expect(await core.dispatch('models.setServers', { servers: ['not a url'] })).toMatchObject({ ok: false });
    await core.dispose();

    core = createCore({ dataDir: dir.path, detectServers: false, ingest: false });
    await core.start();
    expect((await roleOf('answer')).model).toBe(other);
    await core.dispatch('models.chooseRole', { role: 'answer', choice: null });
    expect((await roleOf('answer')).model).toBe(automatic);
  });
});
