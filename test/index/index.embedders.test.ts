import { connect } from '@lancedb/lancedb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { Index } from '../../src/core/index/openIndex';
import { vectorTableName } from '../../src/core/index/schema';
import { tempDir } from '../helpers/shared';
import { documentRow, HashPageEmbedder, HashTextEmbedder, parsedFromPages, sha256 } from './helpers';

const TOPICS = [
  'glacier ice retreat measured by satellite',
  'sourdough starter needs flour and water daily',
  'violin strings are tuned in perfect fifths',
  'solar panels convert sunlight into current',
  'owls hunt at night using silent flight',
  'granite forms from slowly cooled magma',
];

describe('Index embedder switch', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let store: Index;

  beforeEach(async () => {
    dir = await tempDir('quire-index-');
    store = await Index.open({ uri: dir.path });
    for (const [i, topic] of TOPICS.entries()) {
      const hash = sha256(topic);
      await store.content.put(hash, parsedFromPages([topic]));
      await store.documents.upsert(documentRow(`doc${i}`, hash));
    }
  });

  afterEach(async () => {
    await store.dispose();
    await dir.cleanup();
  });

  it('keeps searching the old vectors until the new embedder covers everything', async () => {
    const oldEmbedder = new HashTextEmbedder('test:old', 64);
    await store.vectors.setEmbedders({ text: oldEmbedder, page: null });
    await store.vectors.embedPending();
    const before = await store.search.chunks('silent owls at night', { mode: 'dense', k: 3 });
    expect(before[0]!.documentId).toBe('doc4');

    const newEmbedder = new HashTextEmbedder('test:new', 48);
    await store.vectors.setEmbedders({ text: newEmbedder, page: null });
    expect(store.vectors.status().text).toEqual({
      active: 'test:old',
      pending: 'test:new',
      searchable: true,
    });

    // Stop after the first batch: the switch is half done.
    const controller = new AbortController();
    const partial = await store.vectors.embedPending({
      batchSize: 2,
      signal: controller.signal,
      onProgress: () => controller.abort(),
    });
    expect(partial).toEqual({ embedded: 2, activated: [], complete: false });
    const newCallsBeforeSearch = newEmbedder.calls;
    const during = await store.search.chunks('silent owls at night', { mode: 'dense', k: 3 });
    expect(during).toEqual(before);
    expect(newEmbedder.calls).toBe(newCallsBeforeSearch);

    const rest = await store.vectors.embedPending({ batchSize: 2 });
    expect(rest).toEqual({ embedded: 4, activated: ['text'], complete: true });
    expect(store.vectors.status().text).toEqual({ active: 'test:new', pending: null, searchable: true });
    const oldCalls = oldEmbedder.calls;
    const after = await store.search.chunks('silent owls at night', { mode: 'dense', k: 3 });
    expect(after[0]!.documentId).toBe('doc4');
    expect(oldEmbedder.calls).toBe(oldCalls);
    // The 48-d query went to 48-d vectors: scores are cosines of the new space, not the old.
    expect(after.map((hit) => hit.score)).not.toEqual(before.map((hit) => hit.score));
  });

  it('falls back to BM25 after a restart mid-switch, then activates the new vectors', async () => {
    await store.vectors.setEmbedders({ text: new HashTextEmbedder('test:old', 64), page: null });
    await store.vectors.embedPending();
    await store.vectors.setEmbedders({ text: new HashTextEmbedder('test:new', 48), page: null });
    await store.dispose();

    store = await Index.open({ uri: dir.path });
    const fresh = new HashTextEmbedder('test:new', 48);
    await store.vectors.setEmbedders({ text: fresh, page: null });
    expect(store.vectors.status().text).toEqual({
      active: 'test:old',
      pending: 'test:new',
      searchable: false,
    });
    const hits = await store.search.chunks('granite magma', { mode: 'hybrid' });
    expect(hits[0]).toMatchObject({ documentId: 'doc5', mode: 'bm25' });

    expect(await store.vectors.embedPending()).toMatchObject({ embedded: 6, activated: ['text'] });
    expect((await store.search.chunks('granite magma'))[0]).toMatchObject({
      documentId: 'doc5',
      mode: 'hybrid',
    });
  });

  it('embeds only new content for the active embedder, and page vectors survive a reopen', async () => {
    const text = new HashTextEmbedder();
    const pages = new HashPageEmbedder();
    await store.vectors.setEmbedders({ text, page: pages });
    await store.vectors.embedPending();
    expect([text.texts, pages.pages]).toEqual([6, 6]);

    const hash = sha256('new topic');
    await store.content.put(hash, parsedFromPages(['tidal energy from ocean currents']));
    await store.documents.upsert(documentRow('doc6', hash));
    expect((await store.vectors.embedPending()).embedded).toBe(2);
    expect([text.texts, pages.pages]).toEqual([7, 7]);
    expect((await store.search.pages('tidal ocean currents', { k: 1 }))[0]!.documentId).toBe('doc6');

    await store.dispose();
    const removed: string[] = [];
    store = await Index.open({
      uri: dir.path,
      onContentRemoved: async (hashes) => void removed.push(...hashes),
    });
    await store.vectors.setEmbedders({ text: new HashTextEmbedder(), page: new HashPageEmbedder() });
    expect(await store.vectors.embedPending()).toMatchObject({ embedded: 0, complete: true });
    expect((await store.search.pages('violin fifths', { k: 1 }))[0]!.documentId).toBe('doc2');
    await store.documents.remove('doc2');
    expect(removed).toHaveLength(1);
    expect((await store.search.pages('violin fifths', { k: 1 }))[0]?.documentId).not.toBe('doc2');
  });

  it('builds an approximate vector index in optimize() once past the threshold, and still ranks right', async () => {
    await store.dispose();
    store = await Index.open({ uri: dir.path, vectorIndexRows: 200 });
    const words = TOPICS.join(' ').split(' ');
    for (let i = 0; i < 40; i++) {
      const hash = sha256(`filler ${i}`);
      const paragraphs = Array.from({ length: 6 }, (_, p) =>
        words
          .map((_, w) => words[(w * 7 + i * 13 + p) % words.length])
          .slice(0, 8)
          .join(' '),
      );
      await store.content.put(hash, parsedFromPages([paragraphs.join('\n\n')]));
      await store.documents.upsert(documentRow(`filler${i}`, hash));
    }
    await store.vectors.setEmbedders({ text: new HashTextEmbedder(), page: null });
    await store.vectors.embedPending({ batchSize: 128 });
    const before = await store.search.chunks('violin strings tuned in perfect fifths', {
      mode: 'dense',
      k: 1,
    });
    await store.maintenance.optimize({ cleanupOlderThan: new Date() });
    const db = await connect(dir.path);
    const table = await db.openTable(vectorTableName('text', 'test:hash-64', 64));
    expect((await table.listIndices()).map((index) => index.columns)).toContainEqual(['vector']);
    db.close();
    const after = await store.search.chunks('violin strings tuned in perfect fifths', {
      mode: 'dense',
      k: 1,
    });
    expect(after[0]!.documentId).toBe('doc2');
    expect(after[0]!.chunkId).toBe(before[0]!.chunkId);
  });

  it('reports an embedder that returns the wrong size as a model failure', async () => {
    const liar = new HashTextEmbedder('test:liar', 16);
    liar.embed = async (texts) => texts.map(() => new Float32Array(8));
    await store.vectors.setEmbedders({ text: liar, page: null });
    await expect(store.vectors.embedPending()).rejects.toMatchObject({ code: 'model_failed' });
    expect(store.vectors.status().text.active).toBeNull();
    expect((await store.search.chunks('granite'))[0]!.mode).toBe('bm25');
  });
});
