import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { Index } from '../../src/core/index/openIndex';
import { tempDir } from '../helpers/shared';
import {
  documentRow,
  HashPageEmbedder,
  HashTextEmbedder,
  imagesFor,
  parsedFromPages,
  sha256,
} from './helpers';

const GARDEN = [
  'Tomatoes need full sun and regular watering.\n\nPrune the suckers to keep the plant strong.',
  'Compost improves soil structure and feeds earthworms.',
];
const ENGINE = [
  'The turbocharger compresses intake air before combustion.\n\nAn intercooler lowers the charge temperature.',
  'Check the oil pressure gauge after a cold start.',
];

describe('Index search', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let store: Index;
  const garden = sha256('garden');
  const engine = sha256('engine');

  beforeEach(async () => {
    dir = await tempDir('quire-index-');
    store = await Index.open({ uri: dir.path });
    await store.content.put(garden, parsedFromPages(GARDEN, 'Kitchen garden'), imagesFor(garden, 2), {
      fileName: 'garden_notes.pdf',
    });
    await store.documents.upsert(documentRow('garden', garden, { rootId: 'home' }));
    await store.content.put(engine, parsedFromPages(ENGINE, 'Engine manual'), imagesFor(engine, 2));
    await store.documents.upsert(documentRow('engine', engine, { rootId: 'work' }));
  });

  afterEach(async () => {
    await store.dispose();
    await dir.cleanup();
  });

  it('finds an exact phrase with BM25 and returns page, chunk, boxes and a snippet', async () => {
    const hits = await store.search.chunks('intercooler charge temperature', { k: 3 });
    expect(hits[0]).toMatchObject({
      documentId: 'engine',
      path: '/library/engine.pdf',
      page: 1,
      mode: 'bm25',
    });
    expect(hits[0]!.chunkId).toBe(`${engine}:1`);
    expect(hits[0]!.snippet).toContain('intercooler');
    expect(hits[0]!.boxes).toHaveLength(1);
    expect(hits.every((hit) => hit.documentId === 'engine')).toBe(true);
  });

  it('matches stemmed words and words from the title and file name', async () => {
    expect((await store.search.chunks('earthworm', { k: 1 }))[0]).toMatchObject({
      documentId: 'garden',
      page: 2,
    });
    const byFileName = await store.search.chunks('notes', { k: 5 });
    expect(byFileName.length).toBeGreaterThan(0);
    expect(byFileName.every((hit) => hit.documentId === 'garden')).toBe(true);
  });

  it('survives questions full of punctuation and query syntax', async () => {
    const hits = await store.search.chunks('What\'s the "oil pressure" (after a cold start)? AND: -x', {
      k: 2,
    });
    expect(hits[0]).toMatchObject({ documentId: 'engine', page: 2 });
    await expect(store.search.chunks('?!', {})).rejects.toMatchObject({ code: 'invalid_input' });
    await expect(store.search.chunks('oil', { k: 0 })).rejects.toMatchObject({ code: 'invalid_input' });
  });

  it('filters by document and by root', async () => {
    const everywhere = await store.search.chunks('strong structure pressure sun', { k: 10 });
    expect(new Set(everywhere.map((hit) => hit.documentId))).toEqual(new Set(['garden', 'engine']));
    const onlyEngine = await store.search.chunks('strong structure pressure sun', {
      k: 10,
      filter: { documentIds: ['engine'] },
    });
    expect(onlyEngine.length).toBeGreaterThan(0);
    expect(onlyEngine.every((hit) => hit.documentId === 'engine')).toBe(true);
    const home = await store.search.chunks('strong structure pressure sun', {
      k: 10,
      filter: { rootIds: ['home'] },
    });
    expect(home.every((hit) => hit.documentId === 'garden')).toBe(true);
    expect(await store.search.chunks('oil', { filter: { documentIds: ['nope'] } })).toEqual([]);
  });

  it('answers dense and hybrid queries once a text embedder is active, BM25 before', async () => {
    expect((await store.search.chunks('compost soil', {}))[0]!.mode).toBe('bm25');
    const embedder = new HashTextEmbedder();
    await store.vectors.setEmbedders({ text: embedder, page: null });
    expect(store.vectors.status().text).toEqual({ active: null, pending: embedder.id, searchable: false });
    const result = await store.vectors.embedPending({ batchSize: 2 });
    expect(result).toMatchObject({ embedded: 6, activated: ['text'], complete: true });
    expect(store.vectors.status().text).toEqual({ active: embedder.id, pending: null, searchable: true });

    const dense = await store.search.chunks('soil compost earthworms', { mode: 'dense', k: 2 });
    expect(dense[0]).toMatchObject({ documentId: 'garden', page: 2, mode: 'dense' });
    expect(dense[0]!.score).toBeGreaterThan(dense[1]!.score);
    const hybrid = await store.search.chunks('turbocharger intake air', { k: 3 });
    expect(hybrid[0]).toMatchObject({
      documentId: 'engine',
      page: 1,
      mode: 'hybrid',
      chunkId: `${engine}:0`,
    });
    // A chunk first in both lists scores 2/61 under reciprocal-rank fusion.
    expect(hybrid[0]!.score).toBeCloseTo(2 / 61, 6);
  });

  it('searches pages by late interaction and returns page text and images', async () => {
    await expect(store.search.pages('oil')).rejects.toMatchObject({ code: 'model_unavailable' });
    await store.vectors.setEmbedders({ text: null, page: new HashPageEmbedder() });
    await store.vectors.embedPending();
    const hits = await store.search.pages('oil pressure gauge cold start', { k: 2 });
    expect(hits[0]).toMatchObject({ documentId: 'engine', page: 2, chunkId: null, mode: 'pages' });
    expect(hits[0]!.score).toBeGreaterThan(hits[1]!.score);
    const filtered = await store.search.pages('oil pressure gauge', {
      k: 4,
      filter: { documentIds: ['garden'] },
    });
    expect(filtered.every((hit) => hit.documentId === 'garden')).toBe(true);
    const page = await store.content.page('engine', 2);
    expect(page).toMatchObject({ page: 2, width: 612, height: 792, needsOcr: false, text: ENGINE[1] });
    expect(page.image).toEqual({
      full: `${engine}/2.webp`,
      thumbnail: `${engine}/2.thumb.webp`,
      width: 1224,
      height: 1584,
    });
    await expect(store.content.page('engine', 3)).rejects.toMatchObject({ code: 'not_found' });
  });

  it('reads chunks and documents back', async () => {
    const chunk = await store.content.chunk(`${garden}:1`);
    expect(chunk).toMatchObject({
      documentId: 'garden',
      page: 1,
      text: 'Prune the suckers to keep the plant strong.',
    });
    await expect(store.content.chunk('missing:0')).rejects.toMatchObject({ code: 'not_found' });
    expect(store.documents.list().map((d) => d.id)).toEqual(['engine', 'garden']);
    expect(await store.maintenance.stats()).toEqual({
      documents: 2,
      indexedDocuments: 2,
      chunks: 6,
      pages: 4,
    });
  });

  it('rejects malformed records and content with a clear error', async () => {
    await expect(
      store.documents.upsert({ ...documentRow('x', garden), state: 'bogus' as never }),
    ).rejects.toMatchObject({
      code: 'invalid_input',
    });
    await expect(store.content.put('not-a-hash', parsedFromPages(['x']))).rejects.toMatchObject({
      code: 'invalid_input',
    });
    const broken = parsedFromPages(['one page']);
    broken.chunks[0]!.page = 7;
    await expect(store.content.put(sha256('broken'), broken)).rejects.toMatchObject({
      code: 'invalid_input',
    });
    await expect(store.documents.setState('ghost', 'failed', 'x')).rejects.toMatchObject({
      code: 'not_found',
    });
  });
  it('ranks passages of the document the question is about above a lone passage elsewhere', async () => {
    const ledger = sha256('ledger');
    const memo = sha256('memo');
    const ledgerPages = [
      'Inventory turnover rose as the warehouses cleared old stock.',
      'The inventory count at year end matched the ledger.',
      'Turnover of finished goods inventory is reviewed each quarter.',
      'Warehouse inventory is valued at the lower of cost and net realisable value.',
    ];
    await store.content.put(ledger, parsedFromPages(ledgerPages));
    await store.documents.upsert(documentRow('ledger', ledger));
    await store.content.put(memo, parsedFromPages(['Inventory turnover quarterly. Inventory turnover.']));
    await store.documents.upsert(documentRow('memo', memo));
    const question = 'quarterly inventory turnover of the warehouses';

    const plain = await store.search.chunks(question, { k: 5, documentPrior: false });
    expect(plain[0]!.documentId).toBe('memo');
    // The ledger gathers four passages of evidence; the memo's one short passage no longer leads.
    const weighed = await store.search.chunks(question, { k: 5 });
    expect(weighed[0]!.documentId).toBe('ledger');
    expect(weighed.map((hit) => hit.chunkId).sort()).toEqual(plain.map((hit) => hit.chunkId).sort());
    // Within one document the prior changes nothing.
    const within = { documentIds: ['ledger'] };
    expect((await store.search.chunks(question, { k: 4, filter: within })).map((h) => h.chunkId)).toEqual(
      (await store.search.chunks(question, { k: 4, filter: within, documentPrior: false })).map(
        (h) => h.chunkId,
      ),
    );
  });
});
