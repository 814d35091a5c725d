import { join } from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { Index } from '../../src/core/index/openIndex';
import { MemoryBudgetService } from '../../src/core/memory/memoryBudgetService';
import { RetrievalService } from '../../src/core/retrieval/retrievalService';
import { tempDir } from '../helpers/shared';
import { writeTinyGguf } from '../helpers/tinyModel';
import { documentRow, parsedFromPages, sha256 } from '../index/helpers';

const GB = 1024 ** 3;

/*
 * The reranker is weighed by the memory budget before it loads: on a machine with no room it is not
 * loaded and search says why; with room it shows in the budget until it is disposed.
 */
describe('the reranker in the memory budget', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let index: Index;

  beforeEach(async () => {
    dir = await tempDir('quire-rerank-budget-');
    await writeTinyGguf(join(dir.path, 'reranker.gguf'), { kind: 'reranker' });
    index = await Index.open({ uri: join(dir.path, 'index') });
    const hash = sha256('pumps');
    const pages = ['The pump moves 40 litres a minute.', 'Service the pump every year.'];
    await index.content.put(hash, parsedFromPages(pages));
    await index.documents.upsert(documentRow('pumps', hash));
  });

  afterEach(async () => {
    await index.dispose();
    await dir.cleanup();
  });

  const serviceOn = async (machine: { totalBytes: number; availableBytes: number }) => {
    const memory = new MemoryBudgetService({
      readMachine: async () => ({ ...machine, unifiedMemory: false, source: 'meminfo' }),
    });
    await memory.refresh();
    const retrieval = new RetrievalService({
      index: () => index,
      chatModel: async () => null,
      memory,
      dataDir: dir.path,
      rerankerPath: join(dir.path, 'reranker.gguf'),
      gpu: false,
      threads: 1,
    });
    return { memory, retrieval };
  };

  it('is not loaded when memory has no room, and search keeps its order and says why', async () => {
    const { memory, retrieval } = await serviceOn({ totalBytes: 2 * GB, availableBytes: 0 });
    const result = await retrieval.search('pump', { k: 5, mode: 'bm25', rerank: true });
    expect(result.hits).toHaveLength(2);
    expect(result.rerankedBy).toBeNull();
    expect(result.notes[0]).toMatch(/^The reranker failed \(it does not fit in memory now: Cannot load /);
    expect(result.notes).toContain('Results keep their search order.');
    // The planner's sentence is the budget's note; the reranker is listed as planned, never loaded.
    expect(memory.budget.notes).toHaveLength(1);
    expect(result.notes[0]).toContain(memory.budget.notes[0]!.replace(/\.$/, ''));
    expect(memory.budget.entries.map((e) => [e.label, e.loaded])).toEqual([
      ['quire-tiny-reranker-test', false],
    ]);
    await retrieval.dispose();
    expect(memory.budget.entries).toEqual([]);
  });

  it('is weighed, listed and then released when there is room', async () => {
    const { memory, retrieval } = await serviceOn({ totalBytes: 64 * GB, availableBytes: 32 * GB });
    const reranker = await retrieval.reranker();
    expect(reranker).not.toBeNull();
    expect(memory.budget.notes).toEqual([]);
    const [entry] = memory.budget.entries;
    expect(entry).toMatchObject({ loaded: false, external: false, contextSize: 1024 });
    expect(entry!.weightsBytes).toBeGreaterThan(0);
    await retrieval.dispose();
    expect(memory.budget.entries).toEqual([]);
  });
});
