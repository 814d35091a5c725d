import { describe, expect, it } from 'vitest';
import type { SearchHit } from '../../src/shared/domain/search';
import type { Reranker } from '../../src/core/models/types';
import { heuristicForms, keywordsOf, subQuestionsOf } from '../../src/core/retrieval/queryForms';
import { listwiseOrder, rerankHits } from '../../src/core/retrieval/rerank';
import { reciprocalRankFusion, RRF_K } from '../../src/core/index/search/fusion';
import { fuseHits, retrieve } from '../../src/core/retrieval/retriever';
import { ScriptedModel } from '../agent/scriptedModel';

const hit = (id: string, snippet = `passage ${id}`): SearchHit => ({
  documentId: 'doc',
  path: '/lib/doc.pdf',
  page: 1,
  chunkId: id,
  score: 1,
  snippet,
  boxes: [],
  mode: 'bm25',
});

/** Scores each passage by how many times it says "relevant". */
const wordCountReranker: Reranker = {
  id: 'count',
  rank: async (_query, passages) => passages.map((p) => (p.match(/relevant/g) ?? []).length / 10),
};

describe('search forms of a question', () => {
  it('keeps content words once, in order', () => {
    expect(keywordsOf('What is the revenue of 3M in FY2022 and the revenue in FY2021?')).toEqual([
      'revenue',
      '3M',
      'FY',
      '2022',
      '2021',
    ]);
  });

  it('splits compound questions into parts that stand alone', () => {
    expect(subQuestionsOf('What was the revenue of Adobe in 2022 and how did its margin change?')).toEqual([
      'What was the revenue of Adobe in 2022',
      'how did its margin change?',
    ]);
    expect(subQuestionsOf('Is Verizon capital intensive? How did its capex change?')).toHaveLength(2);
    // Instructions about the answer are not questions of their own.
    expect(subQuestionsOf('What must operators wear? Quote the document.')).toEqual([]);
    // One part only: no sub-questions.
    expect(subQuestionsOf('What is the capital of France?')).toEqual([]);
    const forms = heuristicForms('What was the revenue of Adobe in 2022 and how did its margin change?');
    expect(forms.map((f) => f.kind)).toEqual(['question', 'subquestion', 'subquestion']);
  });
});

describe('fusion of the forms', () => {
  it('searches every form and fuses by reciprocal rank', async () => {
    const searched: string[] = [];
    const lists: Record<string, SearchHit[]> = {};
    const result = await retrieve(
      {
        search: async (query) => {
          searched.push(query);
          return lists[query] ?? (query.startsWith('What was') ? [hit('a'), hit('b')] : [hit('c'), hit('b')]);
        },
      },
      'What was the revenue of Adobe in 2022 and how did its margin change?',
      { k: 3, rewrite: true },
    );
    expect(searched).toHaveLength(3);
    // b is found by every form, so it leads.
    expect(result.hits.map((h) => h.chunkId)).toEqual(['b', 'a', 'c']);
    expect(fuseHits([[hit('x')], [hit('x'), hit('y')]]).map((h) => h.chunkId)).toEqual(['x', 'y']);
  });

  it("fuses query forms with the index's own fusion: its k, and ties kept in first-seen order", () => {
    const fused = fuseHits([[hit('a'), hit('b'), hit('c')], [hit('c'), hit('b'), hit('d')], [hit('e')]]);
    // c (ranks 3 and 1) edges out b (2 and 2); a and e tie at 1/61 and a was seen first.
    expect(fused.map((h) => h.chunkId)).toEqual(['c', 'b', 'a', 'e', 'd']);
    expect(fused[1]!.score).toBeCloseTo(2 / (RRF_K + 2), 12);
    expect(fused.map((h) => h.score)).toEqual(
      reciprocalRankFusion([['a', 'b', 'c'], ['c', 'b', 'd'], ['e']]).map((found) => found.score),
    );
  });

  it('adds a model rewrite, and searches the question alone when the model fails', async () => {
    const model = new ScriptedModel('rewriter', [
      { raw: '{"query": "Adobe revenue 2022", "subQuestions": []}' },
    ]);
    const searched: string[] = [];
    const ports = {
      search: async (query: string) => (searched.push(query), [hit(query)]),
      chatModel: async () => model,
    };
    const result = await retrieve(ports, 'How much did Adobe earn in 2022?', { k: 5, rewrite: true });
    expect(result.forms.map((f) => f.kind)).toEqual(['question', 'rewritten']);
    expect(searched).toContain('Adobe revenue 2022');
    const broken = await retrieve(
      { ...ports, chatModel: async () => new ScriptedModel('broken', [{ raw: 'not json' }]) },
      'How much did Adobe earn in 2022?',
      { k: 5, rewrite: true },
    );
    expect(broken.forms.map((f) => f.kind)).toEqual(['question']);
    expect(broken.notes.join(' ')).toMatch(/not rewritten/);
  });
});

describe('re-ranking', () => {
  it('reorders the candidates by the reranker and leaves the rest after them', async () => {
    const hits = [hit('a', 'nothing'), hit('b', 'relevant'), hit('c', 'relevant relevant'), hit('d')];
    const outcome = await rerankHits('q', hits, { reranker: wordCountReranker, depth: 3 });
    expect(outcome.by).toBe('reranker');
    expect(outcome.hits.map((h) => h.chunkId)).toEqual(['c', 'b', 'a', 'd']);
  });

  it('falls back to the chat model when the reranker runs out of time, then to the search order', async () => {
    const stuck: Reranker = { id: 'stuck', rank: () => new Promise<number[]>(() => undefined) };
    const hits = [hit('a'), hit('b'), hit('c')];
    const listwise = new ScriptedModel('judge', [{ raw: '{"order": ["3", "1"]}' }]);
    const fellBack = await rerankHits('q', hits, { reranker: stuck, listwiseModel: listwise, budgetMs: 50 });
    expect(fellBack.by).toBe('listwise');
    expect(fellBack.hits.map((h) => h.chunkId)).toEqual(['c', 'a', 'b']);
    expect(fellBack.notes[0]).toMatch(/budget/);

    const slowJudge = new ScriptedModel('slow', [], {
      tokensThenHang: ['{"order": ['],
    });
    const kept = await rerankHits('q', hits, { listwiseModel: slowJudge, budgetMs: 50 });
    expect(kept.by).toBeNull();
    expect(kept.hits).toEqual(hits);
    expect(kept.notes.join(' ')).toMatch(/budget.*search order/);
  });

  it('reads only passage numbers it showed from a listwise reply', async () => {
    const model = new ScriptedModel('judge', [{ raw: '{"order": ["2", "2", "9", "1"]}' }]);
    expect(await listwiseOrder(model, 'q', ['x', 'y'])).toEqual([1, 0]);
    const schema = model.requests[0]!.jsonSchema as { properties: { order: { items: { enum: string[] } } } };
    expect(schema.properties.order.items.enum).toEqual(['1', '2']);
  });

  it('stops at once when the caller cancels', async () => {
    const controller = new AbortController();
    const stuck: Reranker = { id: 'stuck', rank: () => new Promise<number[]>(() => undefined) };
    const pending = rerankHits('q', [hit('a'), hit('b')], { reranker: stuck, signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toThrow();
  });
});
