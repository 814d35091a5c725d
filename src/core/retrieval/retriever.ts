/*
 * One search as the agent, the CLI and the evaluation run it: the question's search forms (optionally
 * rewritten by a chat model), each searched, fused by reciprocal rank, then optionally re-ranked.
 */
import type { SearchHit, SearchMode } from '../../shared/domain/search';
import { isAbortError, toErrorInfo } from '../../shared/errors';
import { abortable } from '../common/abortable';
import { reciprocalRankFusion } from '../index/search/fusion';
import type { PassageHit } from '../index/search/indexSearch';
import type { ChatModel, Reranker } from '../models/types';
import { dedupe, heuristicForms, rewrittenForms, type QueryForm } from './queryForms';
import { rerankHits, type RerankedBy } from './rerank';

export interface RetrievalPorts {
  /** Hits that carry their passage's full text are judged on it by a reranker, else on the snippet. */
  search(
    query: string,
    options: { k: number; mode?: SearchMode; signal?: AbortSignal },
  ): Promise<PassageHit[]>;
  reranker?(): Promise<Reranker | null>;
  /** Rewrites queries, and re-ranks listwise when there is no reranker. */
  chatModel?(): Promise<ChatModel | null>;
}

export interface RetrieveOptions {
  k: number;
  mode?: SearchMode;
  /** Search the question's keywords and sub-questions (and a model's rewrite) and fuse them. */
  rewrite?: boolean;
  /** Re-rank the fused candidates with the reranker, else the chat model. */
  rerank?: boolean;
  /** Limit for the model's rewrite. Defaults to 15 s. */
  rewriteBudgetMs?: number;
  rerankBudgetMs?: number;
  signal?: AbortSignal;
}

export interface Retrieval {
  hits: SearchHit[];
  /** The forms searched, the question first. */
  forms: QueryForm[];
  rerankedBy: RerankedBy | null;
  /** What fell back or was skipped, in words for the trace. */
  notes: string[];
  /** What was searched, in the user's words (set by the caller that knows the scope). */
  searched?: string;
}

/** Candidates each form brings to fusion, and the most that are re-ranked. */
const FORM_DEPTH = 30;
const REWRITE_BUDGET_MS = 15_000;

export async function retrieve(
  ports: RetrievalPorts,
  query: string,
  options: RetrieveOptions,
): Promise<Retrieval> {
  const notes: string[] = [];
  let forms: QueryForm[] = [{ kind: 'question', text: query }];
  if (options.rewrite) {
    forms = heuristicForms(query);
    const model = (await ports.chatModel?.()) ?? null;
    if (model) {
      try {
        const budget = AbortSignal.timeout(options.rewriteBudgetMs ?? REWRITE_BUDGET_MS);
        const signal = options.signal ? AbortSignal.any([options.signal, budget]) : budget;
        forms = dedupe([...forms, ...(await rewrittenForms(model, query, signal))]);
      } catch (error) {
        if (options.signal?.aborted) throw error;
        notes.push(
          `The query was not rewritten by the model (${isAbortError(error) ? 'out of time' : toErrorInfo(error).message}); its own wording was searched.`,
        );
      }
    }
  }
  const depth = Math.max(options.k, options.rerank || forms.length > 1 ? FORM_DEPTH : options.k);
  const lists = await Promise.all(
    forms.map((form) =>
      // A search that ignores the signal still cannot hold a cancelled run.
      abortable(
        ports.search(form.text, {
          k: depth,
          ...(options.mode ? { mode: options.mode } : {}),
          ...(options.signal ? { signal: options.signal } : {}),
        }),
        options.signal,
      ),
    ),
  );
  let hits = lists.length === 1 ? lists[0]! : fuseHits(lists);
  let rerankedBy: RerankedBy | null = null;
  if (options.rerank) {
    const [reranker, chat] = await Promise.all([ports.reranker?.() ?? null, ports.chatModel?.() ?? null]);
    const outcome = await rerankHits(query, hits, {
      reranker,
      listwiseModel: chat,
      ...(options.rerankBudgetMs === undefined ? {} : { budgetMs: options.rerankBudgetMs }),
      ...(options.signal ? { signal: options.signal } : {}),
    });
    hits = outcome.hits;
    rerankedBy = outcome.by;
    notes.push(...outcome.notes);
  }
  return { hits: hits.slice(0, options.k).map(withoutText), forms, rerankedBy, notes };
}

/** A hit as it leaves core: the passage's full text stays behind. */
function withoutText({ text: _text, ...hit }: PassageHit): SearchHit {
  return hit;
}

/** The key a hit is fused under: its chunk, or its page for page hits. */
export function hitKey(hit: SearchHit): string {
  return hit.chunkId ?? `${hit.documentId}#${hit.page}`;
}

/** Reciprocal-rank fusion of hit lists; each hit keeps its first-seen fields and takes the fused score. */
export function fuseHits<Hit extends SearchHit>(lists: Hit[][]): Hit[] {
  const byKey = new Map<string, Hit>();
  for (const list of lists) for (const hit of list) if (!byKey.has(hitKey(hit))) byKey.set(hitKey(hit), hit);
  return reciprocalRankFusion(lists.map((list) => list.map(hitKey))).map(({ key, score }) => ({
    ...byKey.get(key)!,
    score,
  }));
}
