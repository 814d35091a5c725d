/*
 * Text search as the user asked for it, or a plain statement of what ran instead. The index picks
 * BM25 whenever it has no usable vectors; this is the one place that turns that into an error (a
 * dense search cannot run without embeddings) or a notice (a hybrid search ran on BM25 alone).
 */
import type { RoleResolution } from '../../shared/domain/models';
import type { ChunkSearchResult, SearchHit } from '../../shared/domain/search';
import { QuireError } from '../../shared/errors';
import type { ResolvedScope } from '../index/search/scopeResolver';
import type { EmbedderStatus } from '../index/vectors/indexVectors';

export type ChunkMode = 'bm25' | 'dense' | 'hybrid';

export interface ChunkSearchDeps {
  search(
    query: string,
    options: {
      k: number;
      mode: ChunkMode;
      signal?: AbortSignal;
      documentIds?: string[];
      scope?: ResolvedScope;
    },
  ): Promise<SearchHit[]>;
  /** The index's text vectors: which embedder made them and whether queries can use them now. */
  textVectors(): EmbedderStatus;
  /** How the embed role resolves now. */
  embedRole(): RoleResolution;
  /** What to do to get an embedding model, in the catalogue's words. */
  embedAdvice(): string;
}

/** Why queries cannot use text vectors now, or null when they can. */
export function missingVectorsReason(vectors: EmbedderStatus, role: RoleResolution): string | null {
  if (vectors.searchable) return null;
  if (role.provider === null) return 'no text embedding model is set up';
  if (vectors.pending) return `the embedding model \`${vectors.pending}\` is still embedding the library`;
  if (vectors.active)
    return `the library was embedded with \`${vectors.active}\`, which is not available now (the embed role is \`${role.model}\`)`;
  return `the embedding model \`${role.model}\` has not embedded the library yet (run \`quire index <folder>\`, or keep Quire open)`;
}

/** The sentence shown when a search that should use meaning ran on keywords alone. */
export function bm25OnlyNotice(reason: string): string {
  return `Searched with BM25 (keywords) only: ${reason}.`;
}

/**
 * Before a text search in `mode`: throws when a dense search cannot run, and returns the notice to
 * give when a search that should use meaning will run on BM25 alone.
 */
export function checkSearchMode(
  deps: Omit<ChunkSearchDeps, 'search'>,
  mode: ChunkMode | 'pages' | undefined,
): { notice: string | null } {
  if (mode === 'pages' || mode === 'bm25') return { notice: null };
  const role = deps.embedRole();
  const reason = missingVectorsReason(deps.textVectors(), role);
  if (reason === null) return { notice: null };
  if (mode === 'dense') {
    const advice = role.provider === null ? ` ${deps.embedAdvice()}.` : '';
    throw new QuireError('model_unavailable', `Dense search needs text embeddings, and ${reason}.${advice}`, {
      suggestion: 'Search with mode "bm25" or "hybrid" meanwhile.',
    });
  }
  return { notice: bm25OnlyNotice(reason) };
}

export async function searchChunks(
  deps: ChunkSearchDeps,
  query: string,
  options: {
    k: number;
    mode?: ChunkMode;
    signal?: AbortSignal;
    documentIds?: string[];
    scope?: ResolvedScope;
  },
): Promise<ChunkSearchResult> {
  const signal = {
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.documentIds ? { documentIds: options.documentIds } : {}),
    ...(options.scope ? { scope: options.scope } : {}),
  };
  const wanted = options.mode ?? 'hybrid';
  const { notice } = checkSearchMode(deps, wanted);
  const mode = notice === null ? wanted : 'bm25';
  return { hits: await deps.search(query, { k: options.k, mode, ...signal }), mode, notice };
}

/** The notice the app shows beside the question box while searches run on BM25 alone. */
export function currentSearchNotice(deps: Omit<ChunkSearchDeps, 'search'>): string | null {
  const reason = missingVectorsReason(deps.textVectors(), deps.embedRole());
  return reason === null ? null : bm25OnlyNotice(reason);
}
