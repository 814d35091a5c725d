import { copyFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createCore, type Core } from '../../src/core/createCore';
import type { Collection, DocumentsResult } from '../../src/shared/domain/scope';
import type { ChunkSearchResult } from '../../src/shared/domain/search';
import { corpusDir, tempDir, withoutCorpus } from '../helpers/shared';

const noCorpus = withoutCorpus('scope and collections on corpus PDFs');

/*
 * Scope and collections through the one door (the dispatcher), on a real core that indexed real PDFs:
 * scoped searches stay inside, every matching document is listed, collections live in the index and
 * take only library paths, and a vanished file is named instead of searched as nothing.
 */
describe.skipIf(noCorpus)('Scope and collections through the contract', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let core: Core;
  let papers: string;
  let other: string;

  beforeAll(async () => {
    dir = await tempDir('quire-scope-contract-');
    const library = join(dir.path, 'library');
    papers = join(library, 'papers');
    other = join(library, 'other');
    await mkdir(papers, { recursive: true });
    await mkdir(other, { recursive: true });
    await copyFile(join(corpusDir, 'pdfjs', 'tracemonkey.pdf'), join(papers, 'tracemonkey.pdf'));
    await copyFile(join(corpusDir, 'unstructured', 'fake-memo.pdf'), join(other, 'fake-memo.pdf'));
    await copyFile(join(corpusDir, 'unstructured', 'DA-1p.pdf'), join(other, 'DA-1p.pdf'));
    core = createCore({
      dataDir: join(dir.path, 'data'),
      detectServers: false,
      findModels: false,
      workers: 1,
      renderImages: false,
      ocr: false,
    });
    await core.start();
    await core.library.addFolder(library);
    await core.library.whenIdle();
    await core.ingestion.whenIdle();
  }, 300_000);

  afterAll(async () => {
    await core?.dispose();
    await dir?.cleanup();
  });

  const value = <T>(result: { ok: true; value: unknown } | { ok: false; error: { message: string } }): T => {
    if (!result.ok) throw new Error(result.error.message);
    return result.value as T;
  };

  it('searches a folder or a file only, and lists every document that mentions a word', async () => {
    // Each call resolves its scope once (it used to resolve it again inside the index).
    const resolutions = vi.spyOn(core.index.search, 'resolveScope');
    const scoped = value<ChunkSearchResult>(
      await core.dispatch('search.query', {
        query: 'trucks night compiler',
        k: 20,
        mode: 'bm25',
        scope: { paths: [other] },
      }),
    );
    expect(scoped.hits.length).toBeGreaterThan(0);
    expect(scoped.hits.every((hit) => hit.path.startsWith(other + '/'))).toBe(true);
    expect(scoped.searched).toBe('other');
    expect(resolutions).toHaveBeenCalledTimes(1);
    // A term is a word (or a phrase), so each word is asked for on its own.
    const all: DocumentsResult['documents'] = [];
    for (const query of ['trucks', 'night', 'compiler'])
      all.push(...value<DocumentsResult>(await core.dispatch('search.documents', { query })).documents);
    expect([...new Set(all.map((d) => d.path.split('/').at(-1)))].sort()).toEqual([
      'DA-1p.pdf',
      'fake-memo.pdf',
      'tracemonkey.pdf',
    ]);
    expect(all.every((d) => d.matches > 0 && d.page >= 1)).toBe(true);
    const file = join(papers, 'tracemonkey.pdf');
    const inFile = value<DocumentsResult>(
      await core.dispatch('search.documents', { query: 'compiler', scope: { paths: [file] } }),
    );
    expect(inFile.documents.map((d) => d.path)).toEqual([file]);
    resolutions.mockClear();
    await core.dispatch('search.documents', { query: 'compiler', scope: { paths: [file] } });
    expect(resolutions).toHaveBeenCalledTimes(1);
    resolutions.mockRestore();
  });

  it('keeps collections in the index, takes only library paths, and names a vanished file', async () => {
    value<Collection>(await core.dispatch('collections.create', { name: 'Memos' }));
    const memo = join(other, 'fake-memo.pdf');
    expect(
      value<Collection>(await core.dispatch('collections.add', { name: 'Memos', paths: [memo] })).paths,
    ).toEqual([memo]);
    // Nothing outside the library gets into a collection.
    const outside = await core.dispatch('collections.add', { name: 'Memos', paths: ['/etc/passwd'] });
    expect(outside).toMatchObject({ ok: false, error: { code: 'not_found' } });
    const hits = value<ChunkSearchResult>(
      await core.dispatch('search.query', {
        query: 'trucks night compiler',
        k: 10,
        mode: 'bm25',
        scope: { collections: ['Memos'] },
      }),
    );
    expect(new Set(hits.hits.map((h) => h.path))).toEqual(new Set([memo]));
    expect(await core.dispatch('collections.delete', { name: 'Memos' })).toEqual({ ok: true, value: null });
    expect(core.library.snapshot().documents).toHaveLength(3);

    // A scope naming a file that is not in the library says so.
    const gone = await core.dispatch('search.query', {
      query: 'trace',
      k: 5,
      mode: 'bm25',
      scope: { paths: [join(papers, 'nothing-here.pdf')] },
    });
    expect(gone).toMatchObject({
      ok: false,
      error: { code: 'not_found', message: expect.stringContaining('not in the library') },
    });
    // Hostile scopes are refused at the door.
    expect(
      await core.dispatch('search.query', { query: 'x', scope: { paths: ['a\0b'] } } as never),
    ).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    expect(
      await core.dispatch('search.query', { query: 'x', scope: { everything: true } } as never),
    ).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
  });
});
