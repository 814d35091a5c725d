import { describe, expect, it } from 'vitest';
import type { EmbedderStatus } from '../../src/core/index/vectors/indexVectors';
import {
  checkSearchMode,
  currentSearchNotice,
  searchChunks,
  type ChunkSearchDeps,
} from '../../src/core/search/chunkSearch';
import { QuireError } from '../../src/shared/errors';
import type { RoleResolution } from '../../src/shared/domain/models';
import type { SearchHit } from '../../src/shared/domain/search';

const hit = (mode: SearchHit['mode']): SearchHit => ({
  documentId: 'd',
  path: '/lib/a.pdf',
  page: 1,
  chunkId: 'c',
  score: 1,
  snippet: 's',
  boxes: [],
  mode,
});
const noEmbedder: RoleResolution = {
  role: 'embed',
  provider: null,
  endpoint: null,
  model: null,
  reason: 'none',
};
const ollamaEmbedder: RoleResolution = {
  role: 'embed',
  provider: 'ollama',
  endpoint: 'http://x',
  model: 'qwen3-embedding:0.6b',
  reason: '',
};

function deps(vectors: EmbedderStatus, role: RoleResolution) {
  const searched: string[] = [];
  const value: ChunkSearchDeps = {
    search: async (_query, { mode }) => {
      searched.push(mode);
      return [hit(mode)];
    },
    textVectors: () => vectors,
    embedRole: () => role,
    embedAdvice: () => 'run `quire models setup`',
  };
  return { value, searched };
}

describe('text search never falls back silently', () => {
  const none: EmbedderStatus = { active: null, pending: null, searchable: false };

  it('refuses dense search without embeddings, naming the missing embedding model', async () => {
    const { value, searched } = deps(none, noEmbedder);
    await expect(searchChunks(value, 'q', { k: 5, mode: 'dense' })).rejects.toThrow(
      'Dense search needs text embeddings, and no text embedding model is set up. run `quire models setup`.',
    );
    expect(searched).toEqual([]);
  });

  it('refuses dense search in the same words before a retrieval (the check search.retrieve runs)', async () => {
    const { value } = deps(none, noEmbedder);
    const direct = await searchChunks(value, 'q', { k: 5, mode: 'dense' }).catch((error: unknown) => error);
    let checked: unknown = null;
    try {
      checkSearchMode(value, 'dense');
    } catch (error) {
      checked = error;
    }
    expect(checked).toBeInstanceOf(QuireError);
    expect(checked).toMatchObject({
      code: 'model_unavailable',
      message: (direct as QuireError).message,
      details: (direct as QuireError).details,
    });
    expect(checkSearchMode(value, 'hybrid').notice).toMatch(/^Searched with BM25/);
    expect(checkSearchMode(value, 'pages').notice).toBeNull();
  });

  it('runs hybrid (asked or by default) on BM25 alone and says so', async () => {
    for (const mode of ['hybrid', undefined] as const) {
      const { value, searched } = deps(none, noEmbedder);
      const result = await searchChunks(value, 'q', { k: 5, ...(mode ? { mode } : {}) });
      expect(result).toMatchObject({
        mode: 'bm25',
        notice: expect.stringMatching(
          /^Searched with BM25 \(keywords\) only: no text embedding model is set up/,
        ),
      });
      expect(searched).toEqual(['bm25']);
    }
    expect(currentSearchNotice(deps(none, noEmbedder).value)).toMatch(/BM25/);
  });

  it('says why when an embedder exists but its vectors are not ready', async () => {
    const pending = deps(
      { active: null, pending: 'ollama:qwen3-embedding:0.6b', searchable: false },
      ollamaEmbedder,
    );
    expect((await searchChunks(pending.value, 'q', { k: 5 })).notice).toContain(
      'is still embedding the library',
    );
    const notYet = deps(none, ollamaEmbedder);
    await expect(searchChunks(notYet.value, 'q', { k: 5, mode: 'dense' })).rejects.toThrow(
      /has not embedded the library yet \(run `quire index <folder>`/,
    );
  });

  it('searches as asked, with no notice, once vectors are searchable; BM25 asked is BM25 without a notice', async () => {
    const ready = deps(
      { active: 'ollama:qwen3-embedding:0.6b', pending: null, searchable: true },
      ollamaEmbedder,
    );
    expect(await searchChunks(ready.value, 'q', { k: 5, mode: 'dense' })).toMatchObject({
      mode: 'dense',
      notice: null,
    });
    expect(await searchChunks(ready.value, 'q', { k: 5 })).toMatchObject({ mode: 'hybrid', notice: null });
    expect(currentSearchNotice(ready.value)).toBeNull();
    const plain = deps(none, noEmbedder);
    expect(await searchChunks(plain.value, 'q', { k: 5, mode: 'bm25' })).toMatchObject({
      mode: 'bm25',
      notice: null,
    });
  });
});
