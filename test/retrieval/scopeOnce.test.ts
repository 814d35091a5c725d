import { join } from 'node:path';

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { Index } from '../../src/core/index/openIndex';
import { MemoryBudgetService } from '../../src/core/memory/memoryBudgetService';
import { RetrievalService } from '../../src/core/retrieval/retrievalService';
import { tempDir } from '../helpers/shared';
import { documentRow, parsedFromPages, sha256 } from '../index/helpers';

const QUESTION = 'What was the pump pressure in the shed and how did the valve change?';

/*
 * A question searched in several forms resolves its scope once, on a real index, and the scope still
 * applies to every form.
 */
describe('one question, one scope resolution', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let index: Index;
  let retrieval: RetrievalService;

  beforeEach(async () => {
    dir = await tempDir('quire-scope-once-');
    index = await Index.open({ uri: join(dir.path, 'index') });
    for (const [id, text] of [
      ['quiet/shed', 'The pump pressure in the shed was 2 bar. The valve was changed in May.'],
      ['loud/plant', 'The pump pressure at the plant was 9 bar. The valve changed twice.'],
    ] as const) {
      const hash = sha256(id);
      await index.content.put(hash, parsedFromPages([text]));
      await index.documents.upsert(documentRow(id.replace('/', '-'), hash, { path: `/library/${id}.pdf` }));
    }
    retrieval = new RetrievalService({
      index: () => index,
      chatModel: async () => null,
      memory: new MemoryBudgetService(),
      dataDir: dir.path,
      rerankerPath: null,
    });
  });

  afterEach(async () => {
    await retrieval.dispose();
    await index.dispose();
    await dir.cleanup();
  });

  it('resolves a folder scope once for all the forms it searches', async () => {
    const resolutions = vi.spyOn(index.search, 'resolveScope');
    const result = await retrieval.search(QUESTION, {
      k: 5,
      mode: 'bm25',
      rewrite: true,
      scope: { paths: ['/library/quiet'] },
    });
    expect(result.forms.length).toBeGreaterThan(1);
    expect(resolutions).toHaveBeenCalledTimes(1);
    expect(result.hits.length).toBeGreaterThan(0);
    expect(result.hits.every((hit) => hit.documentId === 'quiet-shed')).toBe(true);
    expect(result.searched).toBe(resolutions.mock.results[0]!.value.searched);
  });

  it('still refuses a scope naming a vanished file, before searching', async () => {
    const searches = vi.spyOn(index.search, 'chunks');
    await expect(
      retrieval.search(QUESTION, {
        k: 5,
        mode: 'bm25',
        rewrite: true,
        scope: { paths: ['/library/gone.pdf'] },
      }),
    ).rejects.toMatchObject({
      code: 'not_found',
      message: '/library/gone.pdf is not in the library (moved or deleted?).',
    });
    expect(searches).not.toHaveBeenCalled();
  });
});
