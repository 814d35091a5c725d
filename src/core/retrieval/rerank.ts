/*
 * Re-ranking the top candidates of a search: a cross-encoder reranker when one is configured, else the
 * chat model judging a listwise prompt. Both run under a strict time budget; when the budget runs out
 * or the model fails, the fused order stands and the caller is told why.
 */
import type { SearchHit } from '../../shared/domain/search';
import { isAbortError, toErrorInfo } from '../../shared/errors';
import type { PassageHit } from '../index/search/indexSearch';
import type { ChatModel, Reranker } from '../models/types';

export type RerankedBy = 'reranker' | 'listwise';

export interface RerankOptions {
  reranker?: Reranker | null;
  /** Judges a listwise prompt when there is no reranker (or it failed). */
  listwiseModel?: ChatModel | null;
  /** Candidates re-ranked; the rest keep their order after them. Defaults to 20. */
  depth?: number;
  /** Wall time for the whole re-ranking. Defaults to 8 s for a reranker, 20 s for a listwise prompt. */
  budgetMs?: number;
  signal?: AbortSignal;
}

export interface RerankOutcome<Hit extends SearchHit = SearchHit> {
  hits: Hit[];
  /** Null when the original order stands. */
  by: RerankedBy | null;
  /** Why it stands, or how the reranking fell back. */
  notes: string[];
}

const DEFAULT_DEPTH = 20;
const LISTWISE_DEPTH = 10;
const RERANKER_BUDGET_MS = 8_000;
const LISTWISE_BUDGET_MS = 20_000;
const LISTWISE_PASSAGE_CHARS = 400;

/**
 * Each candidate is judged on the full passage text its hit carries (the search read it already),
 * else on its snippet.
 */
export async function rerankHits<Hit extends PassageHit>(
  query: string,
  hits: Hit[],
  options: RerankOptions,
): Promise<RerankOutcome<Hit>> {
  const notes: string[] = [];
  if (hits.length < 2) return { hits, by: null, notes };
  // A prompt holds fewer passages than a reranker scores: it is slower per passage and must fit.
  const depth = Math.min(options.depth ?? (options.reranker ? DEFAULT_DEPTH : LISTWISE_DEPTH), hits.length);
  const head = hits.slice(0, depth);
  const tail = hits.slice(depth);
  const texts = head.map((hit) => hit.text ?? hit.snippet);

  if (options.reranker) {
    const scores = await withinBudget(
      (signal) => options.reranker!.rank(query, texts, { signal }),
      options.budgetMs ?? RERANKER_BUDGET_MS,
      options.signal,
    );
    if (scores.ok && scores.value.length === head.length) {
      return { hits: [...reorder(head, scores.value), ...tail], by: 'reranker', notes };
    }
    notes.push(`The reranker ${scores.ok ? 'returned the wrong number of scores' : scores.reason}.`);
  }
  if (options.listwiseModel) {
    const order = await withinBudget(
      (signal) => listwiseOrder(options.listwiseModel!, query, texts, signal),
      options.budgetMs ?? LISTWISE_BUDGET_MS,
      options.signal,
    );
    if (order.ok) {
      const scores = head.map((_, i) => {
        const at = order.value.indexOf(i);
        return at === -1 ? -1 - i / head.length : head.length - at;
      });
      return { hits: [...reorder(head, scores), ...tail], by: 'listwise', notes };
    }
    notes.push(`The chat model could not re-rank: ${order.reason}.`);
  }
  if (!options.reranker && !options.listwiseModel) notes.push('No reranker or chat model is available.');
  notes.push('Results keep their search order.');
  return { hits, by: null, notes };
}

/** Stable sort by score, best first. */
function reorder<Hit>(hits: Hit[], scores: number[]): Hit[] {
  return hits
    .map((hit, i) => ({ hit, score: scores[i] ?? -Infinity, i }))
    .sort((a, b) => b.score - a.score || a.i - b.i)
    .map((entry) => entry.hit);
}

type Attempt<T> = { ok: true; value: T } | { ok: false; reason: string };

/** Runs `work` with a signal that aborts after `budgetMs`; the caller's own abort is rethrown. */
async function withinBudget<T>(
  work: (signal: AbortSignal) => Promise<T>,
  budgetMs: number,
  outer: AbortSignal | undefined,
): Promise<Attempt<T>> {
  const budget = AbortSignal.timeout(budgetMs);
  const signal = outer ? AbortSignal.any([outer, budget]) : budget;
  try {
    const value = await Promise.race([
      work(signal),
      new Promise<never>((_, reject) => {
        if (signal.aborted) reject(signal.reason);
        signal.addEventListener('abort', () => reject(signal.reason), { once: true });
      }),
    ]);
    return { ok: true, value };
  } catch (error) {
    if (outer?.aborted) throw error;
    if (budget.aborted) return { ok: false, reason: `took longer than its ${budgetMs / 1000} s budget` };
    if (isAbortError(error)) return { ok: false, reason: 'was stopped' };
    return { ok: false, reason: `failed (${toErrorInfo(error).message})` };
  }
}

/** The chat model's ranking of the passages, as 0-based indices, most relevant first. */
export async function listwiseOrder(
  model: ChatModel,
  query: string,
  passages: string[],
  signal?: AbortSignal,
): Promise<number[]> {
  const numbers = passages.map((_, i) => String(i + 1));
  const response = await model.chat({
    messages: [
      {
        role: 'system',
        content:
          'Rank the numbered passages by how well each answers the question, most relevant first. ' +
          'Reply with JSON only: {"order": ["3", "1", ...]} listing passage numbers.',
      },
      {
        role: 'user',
        content: `Question: ${query}\n\n${passages
          .map((text, i) => `[${i + 1}] ${text.replace(/\s+/g, ' ').slice(0, LISTWISE_PASSAGE_CHARS)}`)
          .join('\n')}`,
      },
    ],
    jsonSchema: {
      type: 'object',
      properties: {
        order: { type: 'array', items: { type: 'string', enum: numbers }, maxItems: passages.length },
      },
      required: ['order'],
      additionalProperties: false,
    },
    maxTokens: 16 + passages.length * 6,
    temperature: 0,
    ...(signal ? { signal } : {}),
  });
  const parsed = JSON.parse(response.text) as { order?: unknown };
  if (!Array.isArray(parsed.order)) throw new Error('the reply had no order');
  const order: number[] = [];
  for (const item of parsed.order) {
    const index = Number(item) - 1;
    if (Number.isInteger(index) && index >= 0 && index < passages.length && !order.includes(index))
      order.push(index);
  }
  if (order.length === 0) throw new Error('the reply named no passage');
  return order;
}
