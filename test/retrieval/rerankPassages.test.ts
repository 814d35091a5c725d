import { join } from 'node:path';

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { Index } from '../../src/core/index/openIndex';
import { MemoryBudgetService } from '../../src/core/memory/memoryBudgetService';
import type { Reranker } from '../../src/core/models/types';
import { RetrievalService } from '../../src/core/retrieval/retrievalService';
import { tempDir } from '../helpers/shared';
import { documentRow, parsedFromPages, sha256 } from '../index/helpers';

/** Long passages, so a hit's snippet is only part of the text the reranker must judge. */
const PASSAGES = Array.from(
  { length: 24 },
  (_, i) =>
    `Passage ${i} on pump number ${i}. ` +
    'The housing is cast iron and the impeller is bronze; the seals are replaced at each service. '.repeat(
      8,
    ) +
    `It ends with the rating plate of unit ${i}.`,
);

/*
 * Re-ranking judges whole passages, which the search has read already: reranking 20 hits reads no
 * chunk (or page) again, one query each.
 */
describe('re-ranking the hits of a real index', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let index: Index;

  beforeEach(async () => {
    dir = await tempDir('quire-rerank-passages-');
    index = await Index.open({ uri: join(dir.path, 'index') });
    const hash = sha256('pumps');
    await index.content.put(hash, parsedFromPages(PASSAGES));
    await index.documents.upsert(documentRow('pumps', hash));
  });

  afterEach(async () => {
    await index.dispose();
    await dir.cleanup();
  });

  it('judges 20 hits on their full text with no per-chunk reads', async () => {
    const retrieval = new RetrievalService({
      index: () => index,
      chatModel: async () => null,
      memory: new MemoryBudgetService(),
      dataDir: dir.path,
      rerankerPath: null,
    });
    const judged: string[][] = [];
    // Scores rise down the list, so the reranked order is the search order reversed.
    const reranker: Reranker = {
      id: 'counting',
      rank: async (_query, passages) => (judged.push(passages), passages.map((_, i) => i)),
    };
    vi.spyOn(retrieval, 'reranker').mockResolvedValue(reranker);
    const chunkReads = vi.spyOn(index.content, 'chunk');
    const pageReads = vi.spyOn(index.content, 'page');

    const result = await retrieval.search('pump impeller seals', { k: 24, mode: 'bm25', rerank: true });

    expect(result.rerankedBy).toBe('reranker');
    expect(judged).toHaveLength(1);
    expect(judged[0]).toHaveLength(20);
    expect(chunkReads).not.toHaveBeenCalled();
    expect(pageReads).not.toHaveBeenCalled();
    // What was judged is each passage whole, not its snippet.
    const head = result.hits.slice(0, 20).reverse();
    for (const [i, hit] of head.entries()) {
      expect(hit.snippet.length).toBeLessThan(judged[0]![i]!.length);
      expect(judged[0]![i]).toBe((await index.content.chunk(hit.chunkId!)).text);
    }
    // The text stays in core: hits leave without it.
    expect(result.hits.every((hit) => !('text' in hit))).toBe(true);
    await retrieval.dispose();
  });
});
