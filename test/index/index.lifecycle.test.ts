import { connect } from '@lancedb/lancedb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { Index } from '../../src/core/index/openIndex';
import { tempDir } from '../helpers/shared';
import { documentRow, HashTextEmbedder, imagesFor, parsedFromPages, sha256 } from './helpers';

const REPORT = [
  'Quarterly revenue grew by twelve percent.\n\nMargins narrowed on freight costs.',
  'Outlook: cautious.',
];

describe('Index lifecycle', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let store: Index;
  const hash = sha256('report-v1');
  /** Content hashes the index reported deleted, in order. */
  let removed: string[];
  const open = () =>
    Index.open({
      uri: dir.path,
      onContentRemoved: async (hashes) => {
        removed.push(...hashes);
      },
    });
  /** What the index deleted since the last call. */
  const takeRemoved = async () => removed.splice(0);

  beforeEach(async () => {
    removed = [];
    dir = await tempDir('quire-index-');
    store = await open();
  });

  afterEach(async () => {
    await store.dispose();
    await dir.cleanup();
  });

  async function indexReport(id = 'report', contentHash = hash, pages = REPORT) {
    await store.content.put(contentHash, parsedFromPages(pages), imagesFor(contentHash, pages.length));
    return store.documents.upsert(documentRow(id, contentHash));
  }

  it('writes the content of files that arrive together in one commit per table', async () => {
    await indexReport();
    const before = await store.maintenance.versionCounts();
    const topics = ['tidal turbines', 'glacier retreat', 'coral bleaching', 'peat bogs'];
    const hashes = topics.map((topic) => sha256(topic));
    // Four new files and a new version of one already stored, all written at once.
    await Promise.all([
      ...topics.map((topic, i) => store.content.put(hashes[i]!, parsedFromPages([`Notes on ${topic}.`]))),
      store.content.put(hash, parsedFromPages(['Revenue restated.'])),
    ]);
    const after = await store.maintenance.versionCounts();
    // The new content in one append per table; the stored one replaced in one merge per table.
    expect(after.chunks! - before.chunks!).toBe(2);
    expect(after.pages! - before.pages!).toBe(2);
    for (const [i, contentHash] of hashes.entries()) {
      expect(await store.content.has(contentHash)).toBe(true);
      await store.documents.upsert(documentRow(`topic-${i}`, contentHash));
    }
    const [hit] = await store.search.chunks('glacier retreat', { k: 1 });
    expect(hit?.documentId).toBe('topic-1');
    // The rewritten content holds only its new page and chunk.
    await expect(store.content.page('report', 1)).resolves.toMatchObject({ text: 'Revenue restated.' });
    await expect(store.content.page('report', 2)).rejects.toMatchObject({ code: 'not_found' });
  });

  it('follows a renamed file without touching its content', async () => {
    await indexReport();
    const embedder = new HashTextEmbedder();
    await store.vectors.setEmbedders({ text: embedder, page: null });
    await store.vectors.embedPending();
    const before = await store.maintenance.versionCounts();
    const textsEmbedded = embedder.texts;

    await store.documents.upsert(documentRow('report', hash, { path: '/library/archive/renamed.pdf' }));

    const after = await store.maintenance.versionCounts();
    expect(after.chunks).toBe(before.chunks);
    expect(after.pages).toBe(before.pages);
    expect((await store.vectors.embedPending()).embedded).toBe(0);
    expect(embedder.texts).toBe(textsEmbedded);
    const hits = await store.search.chunks('freight margins', { k: 1 });
    expect(hits[0]).toMatchObject({ documentId: 'report', path: '/library/archive/renamed.pdf', page: 1 });
  });

  it('shares content between identical files and deletes it with the last one', async () => {
    await indexReport('a');
    await store.documents.upsert(documentRow('b', hash, { path: '/library/copy.pdf' }));
    expect(await store.maintenance.stats()).toMatchObject({ documents: 2, chunks: 3, pages: 2 });
    const filtered = await store.search.chunks('revenue', { filter: { documentIds: ['b'] } });
    expect(filtered[0]).toMatchObject({ documentId: 'b', path: '/library/copy.pdf' });

    await store.documents.remove('a');
    expect(await takeRemoved()).toEqual([]);
    expect((await store.search.chunks('revenue'))[0]!.documentId).toBe('b');
    await store.documents.remove('b');
    expect(await takeRemoved()).toEqual([hash]);
    expect(await store.maintenance.stats()).toMatchObject({ documents: 0, chunks: 0, pages: 0 });
    expect(await store.content.has(hash)).toBe(false);
    await store.documents.remove('b');
    expect(await takeRemoved()).toEqual([]);
  });

  it('releases the old content when a file changes', async () => {
    await indexReport();
    const next = sha256('report-v2');
    await store.content.put(next, parsedFromPages(['Revised: revenue grew by nine percent.']));
    await store.documents.upsert(documentRow('report', next));
    expect(await takeRemoved()).toEqual([hash]);
    expect(await store.maintenance.stats()).toMatchObject({ chunks: 1, pages: 1 });
    expect((await store.search.chunks('revenue'))[0]!.snippet).toContain('nine percent');
  });

  it('keeps content invisible until its document is indexed, and collects it after a crash', async () => {
    await store.content.put(hash, parsedFromPages(REPORT));
    expect(await store.content.has(hash)).toBe(true);
    expect(await store.search.chunks('revenue')).toEqual([]);
    await store.documents.upsert(documentRow('report', hash, { state: 'indexing', indexedAt: null }));
    expect(await store.search.chunks('revenue')).toEqual([]);
    await store.documents.setState('report', 'indexed');
    expect(store.documents.get('report')!.indexedAt).toBeGreaterThan(0);
    expect(await store.search.chunks('revenue')).toHaveLength(1);

    // A crash after the content write and before the documents row: reopen finds no owner for it.
    const orphan = sha256('orphan');
    await store.content.put(orphan, parsedFromPages(['Orphaned revenue note.']));
    await store.dispose();
    removed.length = 0;
    store = await open();
    expect(await takeRemoved()).toEqual([orphan]);
    expect(await store.content.has(orphan)).toBe(false);
    expect(await store.maintenance.stats()).toMatchObject({ documents: 1, chunks: 3, pages: 2 });
    expect((await store.search.chunks('revenue')).map((hit) => hit.documentId)).toEqual(['report']);
  });

  it('does not duplicate rows when a write is retried', async () => {
    await store.content.put(hash, parsedFromPages(REPORT));
    await store.content.put(hash, parsedFromPages(REPORT));
    await store.documents.upsert(documentRow('report', hash));
    await store.content.put(hash, parsedFromPages(REPORT));
    await store.documents.upsert(documentRow('report', hash));
    expect(await store.maintenance.stats()).toMatchObject({ documents: 1, chunks: 3, pages: 2 });
    expect(await store.search.chunks('revenue', { k: 10 })).toHaveLength(1);
    // A re-read that yields fewer chunks replaces the old ones rather than adding to them.
    await store.content.put(hash, parsedFromPages(['Only one paragraph now.', 'Outlook.']));
    expect(await store.maintenance.stats()).toMatchObject({ chunks: 2, pages: 2 });
  });

  it('replaces rather than duplicates content stored in an earlier session, and appends new content', async () => {
    await indexReport();
    await store.dispose();
    store = await open();
    // The hash was stored before this session: its rows are replaced.
    await store.content.put(hash, parsedFromPages(REPORT));
    const other = sha256('other');
    await store.content.put(other, parsedFromPages(['A new note on revenue.']));
    await store.documents.upsert(documentRow('other', other));
    expect(await store.maintenance.stats()).toMatchObject({ documents: 2, chunks: 4, pages: 3 });
    // Written in this session, then written again: replaced as well.
    await store.content.put(other, parsedFromPages(['A new note on revenue.']));
    expect(await store.maintenance.stats()).toMatchObject({ chunks: 4, pages: 3 });
  });

  it('collectGarbage returns unreferenced hashes but spares content being indexed', async () => {
    await indexReport();
    const pending = sha256('pending');
    await store.content.put(pending, parsedFromPages(['Work in progress.']));
    expect(await store.content.collectGarbage()).toEqual([]);
    await store.dispose();
    store = await open();
    expect(await store.content.has(pending)).toBe(false);
    expect(await store.content.collectGarbage()).toEqual([]);
    expect(await store.content.has(hash)).toBe(true);

    // Rows another writer left behind (say, a killed process) are found without a reopen.
    const stray = sha256('stray');
    const raw = await connect(dir.path);
    await (
      await raw.openTable('chunks')
    ).add([
      {
        id: `${stray}:0`,
        content_hash: stray,
        chunk_index: 0,
        page: 1,
        text: 'stray',
        heading: null,
        char_start: 0,
        char_end: 5,
        boxes: '[]',
        search_text: 'stray',
      },
    ]);
    raw.close();
    expect(await store.content.collectGarbage()).toEqual([stray]);
    expect(await store.search.chunks('stray')).toEqual([]);
  });

  it('optimize shrinks the version history and keeps search working', async () => {
    for (let i = 0; i < 6; i++)
      await indexReport(`r${i}`, sha256(`r${i}`), [`Report ${i} mentions revenue.`]);
    const before = await store.maintenance.versionCounts();
    const result = await store.maintenance.optimize({ cleanupOlderThan: new Date() });
    const after = await store.maintenance.versionCounts();
    expect(result.versionsRemoved).toBeGreaterThan(0);
    expect(after.chunks).toBeLessThan(before.chunks!);
    expect(after.documents).toBeLessThan(before.documents!);
    expect(await store.search.chunks('revenue', { k: 10 })).toHaveLength(6);
    await indexReport('late', sha256('late'), ['A late revenue report.']);
    expect(await store.search.chunks('late revenue', { k: 1 })).toMatchObject([{ documentId: 'late' }]);
  });

  it('fails clearly once closed', async () => {
    await store.dispose();
    await expect(store.search.chunks('revenue')).rejects.toMatchObject({
      code: 'internal',
      message: 'The index is closed.',
    });
    store = await open();
  });
});
