import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLlamaReranker, type LlamaReranker } from '../../src/core/models/llama/llamaReranker';
import { rerankHits } from '../../src/core/retrieval/rerank';
import type { SearchHit } from '../../src/shared/domain/search';
import { quireRejection } from '../helpers/rejection';
import { tempDir } from '../helpers/shared';
import { writeTinyGguf } from '../helpers/tinyModel';

/*
 * The reranker runs on node-llama-cpp's ranking context in a model host child, on a tiny random-weight
 * GGUF shaped like a Qwen3-Reranker conversion (rank pooling, a yes/no classification head).
 */
describe('llama reranker', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let reranker: LlamaReranker;

  beforeAll(async () => {
    dir = await tempDir('quire-reranker-');
    await writeTinyGguf(join(dir.path, 'reranker.gguf'), { kind: 'reranker' });
    await writeTinyGguf(join(dir.path, 'chat.gguf'));
    reranker = await createLlamaReranker({
      modelPath: join(dir.path, 'reranker.gguf'),
      gpu: false,
      threads: 1,
    });
  });

  afterAll(async () => {
    await reranker?.dispose();
    await dir?.cleanup();
  });

  it('scores passages between 0 and 1, the same way every time, and reorders search results by them', async () => {
    const passages = ['The cat sat on the mat.', 'Revenue grew 12% in 2022.', 'cats and mats', 'x'];
    const first = await reranker.rank('where did the cat sit?', passages);
    expect(first).toHaveLength(4);
    for (const score of first) {
      expect(score).toBeGreaterThan(0);
      expect(score).toBeLessThan(1);
    }
    expect(await reranker.rank('where did the cat sit?', passages)).toEqual(first);
    // Another query scores the same passages differently: the query is read, not ignored.
    expect(await reranker.rank('revenue growth', passages)).not.toEqual(first);

    const hits: SearchHit[] = passages.map((snippet, i) => ({
      documentId: 'd',
      path: '/d.pdf',
      page: i + 1,
      chunkId: `c${i}`,
      score: 1,
      snippet,
      boxes: [],
      mode: 'bm25',
    }));
    const outcome = await rerankHits('where did the cat sit?', hits, { reranker });
    expect(outcome.by).toBe('reranker');
    const expected = [...first.keys()].sort((a, b) => first[b]! - first[a]! || a - b).map((i) => `c${i}`);
    expect(outcome.hits.map((h) => h.chunkId)).toEqual(expected);
    expect(reranker.memoryEntry()).toMatchObject({ loaded: true, external: false });
    expect(reranker.memoryEntry().weightsBytes).toBeGreaterThan(0);
  });

  it('refuses a model without a ranking head, with a clear reason', async () => {
    const chat = await createLlamaReranker({
      modelPath: join(dir.path, 'chat.gguf'),
      gpu: false,
      threads: 1,
    });
    try {
      const error = await quireRejection(chat.rank('q', ['a']));
      expect(error.code).toBe('model_failed');
      expect(error.message).toMatch(/no ranking head/);
    } finally {
      await chat.dispose();
    }
  });
});
