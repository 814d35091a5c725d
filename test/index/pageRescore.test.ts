import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { LateInteractionIndex } from '../../src/core/index/lateInteraction';
import { Index } from '../../src/core/index/openIndex';
import type { PageKernel } from '../../src/core/index/vectors/pageKernel';
import { tempDir } from '../helpers/shared';
import { documentRow, HashPageEmbedder, imagesFor, parsedFromPages, sha256 } from './helpers';

const PAGES = [
  'Check the oil pressure gauge after a cold start.',
  'The oil filter sits below the pressure relief valve.',
  'Tomatoes need full sun and regular watering.',
  'Oil the hinges; check the gauge of the wire.',
  'A cold start needs a charged battery.',
];

/** A stand-in kernel that ranks the pages it is asked for backwards: only re-scoring can fix it. */
function backwardsKernel(options: { dimensions: number }): PageKernel {
  const inner = new LateInteractionIndex(options);
  return {
    get size() {
      return inner.size;
    },
    upsert: (key, vectors, count) => inner.upsert(key, vectors, count),
    delete: (key) => inner.delete(key),
    entries: () => inner.entries(),
    search: (query, queryCount, k, searchOptions) =>
      inner
        .search(query, queryCount, inner.size, searchOptions)
        .reverse()
        .slice(0, k)
        .map((hit, i) => ({ key: hit.key, score: 100 - i })),
  };
}

describe('page search re-scoring from fp16 vectors', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  const hash = sha256('manual');

  async function openWith(createPageKernel?: (options: { dimensions: number }) => PageKernel) {
    const store = await Index.open({ uri: dir.path, ...(createPageKernel ? { createPageKernel } : {}) });
    await store.vectors.setEmbedders({ text: null, page: new HashPageEmbedder() });
    await store.vectors.embedPending();
    return store;
  }

  beforeEach(async () => {
    dir = await tempDir('quire-rescore-');
    const store = await Index.open({ uri: dir.path });
    await store.content.put(hash, parsedFromPages(PAGES, 'Manual'), imagesFor(hash, PAGES.length));
    await store.documents.upsert(documentRow('manual', hash, { rootId: 'home' }));
    await store.dispose();
  });

  afterEach(async () => {
    await dir.cleanup();
  });

  it('ranks by exact MaxSim over the stored fp16 vectors, whatever order the in-memory index gives', async () => {
    const exact = await openWith();
    const truth = await exact.search.pages('oil pressure gauge cold start', { k: 3 });
    await exact.dispose();
    const backwards = await openWith(backwardsKernel);
    const hits = await backwards.search.pages('oil pressure gauge cold start', { k: 3 });
    await backwards.dispose();
    expect(truth).toHaveLength(3);
    expect(truth[0]!.page).toBe(1);
    expect(hits.map((hit) => hit.page)).toEqual(truth.map((hit) => hit.page));
    hits.forEach((hit, i) => expect(hit.score).toBeCloseTo(truth[i]!.score, 5));
    for (let i = 1; i < hits.length; i++) expect(hits[i]!.score).toBeLessThanOrEqual(hits[i - 1]!.score);
  });

  it('keeps the search scope and honours an aborted signal', async () => {
    const store = await openWith(backwardsKernel);
    const scoped = await store.search.pages('oil pressure gauge', {
      k: 5,
      filter: { documentIds: ['other'] },
    });
    expect(scoped).toEqual([]);
    const controller = new AbortController();
    controller.abort();
    await expect(store.search.pages('oil', { signal: controller.signal })).rejects.toBeTruthy();
    await store.dispose();
  });
});
