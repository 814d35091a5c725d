import { afterEach, beforeAll, afterAll, describe, expect, it } from 'vitest';

import type { ContentOwners } from '../../src/core/index/documents/documentCatalog';
import { Index } from '../../src/core/index/openIndex';
import type { IndexedDocument } from '../../src/core/index/records';
import { scopeFor } from '../../src/core/index/search/searchScope';
import { tempDir } from '../helpers/shared';
import {
  documentRow,
  HashPageEmbedder,
  HashTextEmbedder,
  imagesFor,
  parsedFromPages,
  sha256,
} from './helpers';

/*
 * Scoped search on a real LanceDB index: the scope is applied before ranking, so a document that
 * ranks below the top k of the whole library still gives its own k best hits.
 */

// Loud documents say "pressure" many times per passage; the quiet one says it once per long passage.
const loud = (n: number) =>
  Array.from(
    { length: 3 },
    (_, p) => `Pressure pressure pressure gauge ${n}-${p}: the pressure rises under pressure.`,
  );
const QUIET = [
  'A long note about the garden shed, its paint, its roof, its door and the tools inside. The pressure of the hose is mentioned once here.\n\n' +
    'The tomatoes grow along the fence, watered in the morning. A second passage with pressure, said once among many other words about weather and soil.\n\n' +
    'Nothing here about the matter at all: only compost, leaves and earthworms.',
];

describe('Scoped search', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let store: Index;

  beforeAll(async () => {
    dir = await tempDir('quire-scope-');
    store = await Index.open({ uri: dir.path });
    for (let n = 0; n < 8; n++) {
      const hash = sha256(`loud-${n}`);
      await store.content.put(hash, parsedFromPages(loud(n)), imagesFor(hash, 3));
      await store.documents.upsert(documentRow(`loud-${n}`, hash, { path: `/library/loud/loud-${n}.pdf` }));
    }
    const quiet = sha256('quiet');
    await store.content.put(quiet, parsedFromPages(QUIET), imagesFor(quiet, 1));
    await store.documents.upsert(documentRow('quiet', quiet, { path: '/library/quiet/shed notes.pdf' }));
    await store.vectors.setEmbedders({ text: new HashTextEmbedder(), page: new HashPageEmbedder() });
    await store.vectors.embedPending();
  }, 120_000);

  afterAll(async () => {
    await store.dispose();
    await dir.cleanup();
  });

  it('a document that ranks low in the whole library still gives its k best hits (BM25, dense, hybrid, pages)', async () => {
    for (const mode of ['bm25', 'dense', 'hybrid'] as const) {
      const whole = await store.search.chunks('pressure', { k: 2, mode });
      expect(
        whole.some((hit) => hit.documentId === 'quiet'),
        mode,
      ).toBe(false);
      const scoped = await store.search.chunks('pressure', {
        k: 2,
        mode,
        filter: { scope: { paths: ['/library/quiet'] } },
      });
      expect(
        scoped.map((hit) => hit.documentId),
        mode,
      ).toEqual(['quiet', 'quiet']);
      expect(
        scoped.every((hit) => hit.snippet.toLowerCase().includes('pressure')),
        mode,
      ).toBe(true);
    }
    const pagesWhole = await store.search.pages('pressure', { k: 3 });
    expect(pagesWhole.some((hit) => hit.documentId === 'quiet')).toBe(false);
    const pages = await store.search.pages('pressure', {
      k: 3,
      filter: { scope: { paths: ['/library/quiet/shed notes.pdf'] } },
    });
    expect(pages.map((hit) => hit.documentId)).toEqual(['quiet']);
  });

  it('a folder scope admits the files under it and no file whose name merely starts the same', async () => {
    const hits = await store.search.chunks('pressure', {
      k: 50,
      mode: 'bm25',
      filter: { scope: { paths: ['/library/loud'] } },
    });
    expect(new Set(hits.map((hit) => hit.documentId)).size).toBe(8);
    expect(hits.every((hit) => hit.path.startsWith('/library/loud/'))).toBe(true);
    await expect(
      store.search.chunks('pressure', { filter: { scope: { paths: ['/library/lou'] } } }),
    ).rejects.toMatchObject({ code: 'not_found' });
  });

  it('lists every matching document, not the top k, with its count of passages and best page', async () => {
    const all = await store.search.documents('pressure');
    expect(all).toHaveLength(9);
    const quiet = all.find((d) => d.documentId === 'quiet');
    expect(quiet).toMatchObject({ path: '/library/quiet/shed notes.pdf', matches: 2, page: 1 });
    expect(all.filter((d) => d.documentId !== 'quiet').every((d) => d.matches === 3)).toBe(true);
    expect(await store.search.documents('earthworms')).toEqual([
      expect.objectContaining({ documentId: 'quiet', matches: 1 }),
    ]);
    const scoped = await store.search.documents('pressure', { filter: { scope: { documents: ['loud-3'] } } });
    expect(scoped.map((d) => d.documentId)).toEqual(['loud-3']);
  });

  it('says a scope naming a vanished file is gone instead of searching nothing', async () => {
    await expect(
      store.search.chunks('pressure', { filter: { scope: { paths: ['/library/gone.pdf'] } } }),
    ).rejects.toThrow(/not in the library/);
    expect(() => store.search.resolveScope({ documents: ['nope'] })).toThrow(/no longer in the library/);
    expect(store.search.resolveScope(null).searched).toBe('the whole library');
  });
});

describe('Collections', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let store: Index;

  afterEach(async () => {
    await store.dispose();
    await dir.cleanup();
  });

  it('are saved in the index, scope searches, survive a reopen, and deleting one deletes no document', async () => {
    dir = await tempDir('quire-collections-');
    store = await Index.open({ uri: dir.path });
    for (const id of ['a', 'b', 'c']) {
      const hash = sha256(id);
      await store.content.put(
        hash,
        parsedFromPages([`Contract ${id} says indemnity applies.`]),
        imagesFor(hash, 1),
      );
      await store.documents.upsert(documentRow(id, hash, { path: `/library/${id}.pdf` }));
    }
    await store.collections.create('Contracts 2024');
    await expect(store.collections.create('contracts 2024')).rejects.toMatchObject({ code: 'invalid_input' });
    await store.collections.add('Contracts 2024', ['/library/a.pdf', '/library/b.pdf']);
    await store.collections.create('Only B');
    await store.collections.add('Only B', ['/library/b.pdf']);
    const hits = await store.search.chunks('indemnity', {
      k: 10,
      filter: { scope: { collections: ['Contracts 2024'] } },
    });
    expect(new Set(hits.map((h) => h.documentId))).toEqual(new Set(['a', 'b']));

    await store.collections.rename('Contracts 2024', 'Signed');
    await store.collections.remove('Signed', ['/library/a.pdf']);
    await store.dispose();
    store = await Index.open({ uri: dir.path });
    expect(store.collections.list().map((c) => [c.name, c.paths])).toEqual([
      ['Only B', ['/library/b.pdf']],
      ['Signed', ['/library/b.pdf']],
    ]);
    await store.collections.delete('Signed');
    expect(store.collections.list().map((c) => c.name)).toEqual(['Only B']);
    expect(store.documents.list().map((d) => d.id)).toEqual(['a', 'b', 'c']);

    // A member whose file left the library is named, not silently searched as nothing.
    await store.documents.remove('b');
    expect(() => store.search.resolveScope({ collections: ['Only B'] })).toThrow(
      /no longer in the library.*b\.pdf/,
    );
    await store.collections.add('Only B', ['/library/c.pdf']);
    const resolved = store.search.resolveScope({ collections: ['Only B'] });
    expect(resolved.missing).toEqual(['/library/b.pdf']);
    expect(resolved.searched).toContain('not found now: /library/b.pdf');
  }, 60_000);
});

describe('The scope prefilter', () => {
  it('stays exact past thousands of documents (split IN lists, no filtering after the top k)', async () => {
    const documents: IndexedDocument[] = Array.from({ length: 2500 }, (_, i) =>
      documentRow(`d${i}`, sha256(`h${i}`), { path: `/library/many/${i}.pdf` }),
    );
    const owners: ContentOwners = {
      owners: () => new Map(documents.map((d) => [d.contentHash!, [d]])),
      referencedHashes: () => new Set(documents.map((d) => d.contentHash!)),
    };
    const scope = scopeFor(
      owners,
      () => owners.referencedHashes(),
      undefined,
      new Set(documents.slice(0, 2100).map((d) => d.id)),
    );
    expect(scope.allowed.size).toBe(2100);
    expect(scope.where).toMatch(
      /^\(content_hash IN \(.*\) OR content_hash IN \(.*\) OR content_hash IN \(.*\)\)$/s,
    );
    const dir = await tempDir('quire-prefilter-');
    const store = await Index.open({ uri: dir.path });
    try {
      const hash = sha256('h5');
      await store.content.put(hash, parsedFromPages(['Five is in scope.']), imagesFor(hash, 1));
      const other = sha256('h2400');
      await store.content.put(other, parsedFromPages(['Twenty-four hundred is not.']), imagesFor(other, 1));
      // LanceDB reads the long prefilter and keeps exactly the rows it names.
      const db = (
        store as unknown as {
          tables: { chunks: { query(): { where(w: string): { toArray(): Promise<unknown[]> } } } };
        }
      ).tables;
      const rows = (await db.chunks.query().where(scope.where!).toArray()) as Array<{ content_hash: string }>;
      expect(rows.map((r) => r.content_hash)).toEqual([hash]);
    } finally {
      await store.dispose();
      await dir.cleanup();
    }
  }, 60_000);
});
