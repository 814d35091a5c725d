import { afterEach, describe, expect, it } from 'vitest';

import { Index } from '../../src/core/index/openIndex';
import { tempDir } from '../helpers/shared';
import { documentRow, HashTextEmbedder, parsedFromPages, sha256 } from './helpers';

/*
 * A reader's tables are always at their writer's latest version, its list of documents only as of its
 * last catch-up: a search in between meets rows of documents it does not know. Two real indexes on one
 * folder, as `quire mcp` beside the app: the reader skips those rows and says the library changed.
 */

const opened: Index[] = [];
let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  for (const index of opened.splice(0)) await index.dispose();
  await cleanup?.();
});

async function open(uri: string, readOnly = false): Promise<Index> {
  const index = await Index.open({ uri, readOnly });
  opened.push(index);
  return index;
}

async function addDocument(index: Index, id: string, pages: string[]): Promise<void> {
  const hash = sha256(id);
  await index.content.put(hash, parsedFromPages(pages), []);
  await index.documents.upsert(documentRow(id, hash));
}

describe('a reader whose writer indexed documents since it last caught up', () => {
  it('leaves out hits of documents it does not know, says so, and finds them once caught up', async () => {
    const dir = await tempDir('quire-reader-behind-');
    cleanup = dir.cleanup;
    const writer = await open(dir.path);
    await addDocument(writer, 'garden', ['Tomatoes need full sun and regular watering.']);
    const reader = await open(dir.path, true);
    expect(reader.search.changedNote()).toBeNull();

    await addDocument(writer, 'engine', ['The turbocharger compresses intake air before combustion.']);
    await writer.maintenance.optimize();

    // The chunk is in the reader's tables; its document is not in the reader's list yet.
    const hits = await reader.search.chunks('turbocharger combustion tomatoes', { k: 5, mode: 'bm25' });
    expect(hits.map((hit) => hit.documentId)).toEqual(['garden']);
    expect(reader.search.changedNote()).toMatch(/library changed while searching/);

    await reader.refresh();
    expect(reader.search.changedNote()).toBeNull();
    const caughtUp = await reader.search.chunks('turbocharger combustion', { k: 5, mode: 'bm25' });
    expect(caughtUp[0]).toMatchObject({ documentId: 'engine', path: '/library/engine.pdf' });
  }, 60_000);

  it('skips them in dense and hybrid search too', async () => {
    const dir = await tempDir('quire-reader-behind-');
    cleanup = dir.cleanup;
    const embedder = new HashTextEmbedder();
    const writer = await open(dir.path);
    await writer.vectors.setEmbedders({ text: embedder, page: null });
    await addDocument(writer, 'garden', ['Tomatoes need full sun and regular watering.']);
    await writer.vectors.embedPending();
    const reader = await open(dir.path, true);
    reader.vectors.attach({ text: embedder });

    await addDocument(writer, 'engine', ['The turbocharger compresses intake air before combustion.']);
    await writer.vectors.embedPending();
    await writer.maintenance.optimize();

    for (const mode of ['dense', 'hybrid'] as const) {
      const hits = await reader.search.chunks('turbocharger combustion', { k: 5, mode });
      expect(
        hits.every((hit) => hit.documentId === 'garden'),
        mode,
      ).toBe(true);
    }
    expect(reader.search.changedNote()).not.toBeNull();
  }, 60_000);

  it('counts the chunks its writer has not embedded yet, for the search to say so', async () => {
    const dir = await tempDir('quire-reader-behind-');
    cleanup = dir.cleanup;
    const embedder = new HashTextEmbedder();
    const writer = await open(dir.path);
    await writer.vectors.setEmbedders({ text: embedder, page: null });
    await addDocument(writer, 'garden', ['Tomatoes need full sun and regular watering.']);
    await writer.vectors.embedPending();
    const reader = await open(dir.path, true);
    expect(await reader.vectors.unembedded('text')).toEqual({ missing: 0, total: 1 });

    await addDocument(writer, 'engine', ['The turbocharger compresses intake air before combustion.']);
    expect(await reader.vectors.unembedded('text')).toEqual({ missing: 1, total: 2 });
    await writer.vectors.embedPending();
    expect(await reader.vectors.unembedded('text')).toEqual({ missing: 0, total: 2 });
    expect(await reader.vectors.unembedded('page')).toBeNull();
  }, 60_000);
});
