import type { DocumentMatch, Scope } from '../../../shared/domain/scope';
import type { SearchHit, SearchMode } from '../../../shared/domain/search';
import { QuireError } from '../../../shared/errors';
import { abortable } from '../../common/abortable';
import type { FullTextIndexes } from '../content/fullText';
import type { ContentOwners } from '../documents/documentCatalog';
import { parseBoxes } from '../records';
import { ftsQuery, snippetAround } from '../searchText';
import { sqlIn } from '../sql';
import { stemSiblings } from './stemSiblings';
import { formsIn, pluralForms, termWords, wordsOf } from './wordMatch';
import type { IndexTables } from '../tables';
import { inBatches } from '../tableIo';
import { checkedVector, type TextEmbedder } from '../vectors/embedders';
import type { ActiveVectors } from '../vectors/indexVectors';
import { packNormalised } from '../vectors/pageKernel';
import { PAGE_RESCORE_DEPTH, rescorePages } from './pageRescore';
import { applyDocumentPrior, DOCUMENT_PRIOR_DEPTH } from './documentPrior';
import { reciprocalRankFusion } from './fusion';
import type { ResolvedScope } from './scopeResolver';
import { ownerFor, scopeFor, type ContentScope, type SearchFilter } from './searchScope';

export type { SearchFilter } from './searchScope';

export interface ChunkSearchOptions {
  k?: number;
  /** Defaults to hybrid when a text embedder is active, BM25 otherwise. */
  mode?: 'bm25' | 'dense' | 'hybrid';
  filter?: SearchFilter;
  /**
   * Weigh BM25 passages by how much of the evidence their document gathers (on by default; see
   * documentPrior.ts). Off measures BM25 alone.
   */
  documentPrior?: boolean;
  /** Each hit also carries its passage's full text (see PassageHit). */
  withText?: boolean;
  /** Stops the search: it rejects at once with the signal's reason. */
  signal?: AbortSignal;
}

export interface PageSearchOptions {
  k?: number;
  filter?: SearchFilter;
  /** Each hit also carries its page's full text (see PassageHit). */
  withText?: boolean;
  signal?: AbortSignal;
}

/**
 * A hit with the full text of its passage (chunk or page) when asked for: the search has read it
 * already, so a reranker judging whole passages need not read each one again. Not for the contract:
 * hits leave core without it.
 */
export type PassageHit = SearchHit & { text?: string };

export interface DocumentSearchOptions {
  filter?: SearchFilter;
  /**
   * Also count words that share the term's stem ("transformation" for "transformer"); off by default,
   * when only the term itself counts (case and plural folded, see wordMatch.ts).
   */
  related?: boolean;
  signal?: AbortSignal;
}

/** BM25, dense and hybrid search over chunks; late-interaction search over pages. */
export interface Searcher {
  chunks(query: string, options?: ChunkSearchOptions): Promise<PassageHit[]>;
  /** Late-interaction page search with the active page embedder; exact MaxSim scores. */
  pages(query: string, options?: PageSearchOptions): Promise<PassageHit[]>;
  /**
   * Every document that holds the term as a word (or phrase), no top k, most passages first, each with
   * the forms found there; `related` also admits words of the same stem.
   */
  documents(query: string, options?: DocumentSearchOptions): Promise<DocumentMatch[]>;
  /** The documents a scope admits and what it names that is gone; throws when it admits nothing. */
  resolveScope(scope: Scope | null | undefined): ResolvedScope;
  /** What a shared library's reader is told while keyword search cannot see all of it; null when it can. */
  keywordNote(): string | null;
  /**
   * What a reader is told after a search met passages of documents it does not know yet (its writer,
   * another process, indexed them since it last caught up): they were left out. Null once it caught up.
   */
  changedNote(): string | null;
}

interface ChunkRow {
  id: string;
  content_hash: string;
  page: number;
  text: string;
  boxes: string;
}

const DEFAULT_K = 10;
const MAX_K = 1000;
/** Candidates each list brings to hybrid fusion. */
const FUSION_DEPTH = 50;

export class IndexSearch implements Searcher {
  /** The owners as they were when a search left out rows of unknown documents; stale once they change. */
  private behindWriter: ReadonlyMap<string, unknown> | null = null;

  constructor(
    private readonly tables: IndexTables,
    private readonly owners: ContentOwners,
    /** Every hash with rows now, visible or not. */
    private readonly stored: () => Set<string>,
    private readonly fullText: FullTextIndexes,
    private readonly vectors: ActiveVectors,
    private readonly resolver: (scope: Scope | null | undefined) => ResolvedScope,
  ) {}

  resolveScope(scope: Scope | null | undefined): ResolvedScope {
    return this.resolver(scope);
  }

  keywordNote(): string | null {
    return this.fullText.readerNote();
  }

  changedNote(): string | null {
    if (this.behindWriter === null || this.behindWriter !== this.owners.owners()) return null;
    return 'The library changed while searching: passages of documents indexed meanwhile were left out; search again to include them.';
  }

  /**
   * Keeps the rows whose content a document known here owns. A reader's tables are newer than its
   * documents whenever its writer commits between the two reads, so any row may name unknown content.
   */
  private owned<T extends { content_hash: string }>(rows: T[], scope: ContentScope): T[] {
    const kept = rows.filter((row) => ownerFor(this.owners, row.content_hash, scope) !== undefined);
    if (kept.length < rows.length) this.behindWriter = this.owners.owners();
    return kept;
  }

  /** The content a search may read: its filter and scope, resolved, as an exact SQL prefilter. */
  private contentScope(filter: SearchFilter | undefined): ContentScope {
    const resolved = filter?.resolvedScope ?? (filter?.scope ? this.resolveScope(filter.scope) : null);
    const inScope = resolved?.documentIds ?? null;
    return scopeFor(this.owners, this.stored, filter, inScope);
  }

  async documents(query: string, options: DocumentSearchOptions = {}): Promise<DocumentMatch[]> {
    this.tables.assertOpen();
    const { signal } = options;
    signal?.throwIfAborted();
    const term = termWords(typeof query === 'string' ? query : '');
    if (term.length === 0) throw new QuireError('invalid_input', 'Type some words to search for.');
    const scope = this.contentScope(options.filter);
    if (scope.allowed.size === 0 || !this.fullText.ready) return [];
    await abortable(this.fullText.foldPending(), signal);
    // Every matching chunk, not the top k: the limit is the number of rows that could match.
    const rows = await abortable(this.tables.chunks.countRows(scope.where ?? undefined), signal);
    if (rows === 0) return [];
    // The index matches stems, so it finds every passage that could hold the words (and more); each
    // is then checked for the words themselves.
    const slots = term.map((word) => new Set(pluralForms(word)));
    const search = this.tables.chunks
      .query()
      .fullTextSearch(ftsQuery(slots.flatMap((slot) => [...slot]).join(' ')), { columns: 'search_text' })
      .select(['content_hash', 'page', 'text', '_score'])
      .limit(rows);
    if (scope.where) search.where(scope.where);
    const found = (await abortable(search.toArray(), signal)) as Array<ChunkRow & { _score: number }>;
    if (options.related) {
      const seen = new Set(found.flatMap((row) => [...wordsOf(row.text)]));
      for (const [i, word] of term.entries()) {
        for (const sibling of await stemSiblings(word, seen, signal)) slots[i]!.add(sibling);
      }
    }
    const byHash = new Map<string, { best: ChunkRow & { _score: number }; forms: string[][] }>();
    for (const row of found) {
      const forms = formsIn(row.text, slots);
      if (forms.length === 0) continue;
      const entry = byHash.get(row.content_hash);
      if (!entry) byHash.set(row.content_hash, { best: row, forms: [forms] });
      else {
        entry.forms.push(forms);
        if (row._score > entry.best._score) entry.best = row;
      }
    }
    const matches: DocumentMatch[] = [];
    for (const [hash, { best, forms }] of byHash) {
      const ranked = byPassages(forms);
      const snippet = snippetAround(best.text, formsIn(best.text, slots)[0] ?? query);
      for (const document of this.owners.owners().get(hash) ?? []) {
        if (scope.admits && !scope.admits(document)) continue;
        matches.push({
          documentId: document.id,
          path: document.path,
          matches: forms.length,
          page: Number(best.page),
          snippet,
          forms: ranked,
        });
      }
    }
    return matches.sort((a, b) => b.matches - a.matches || a.path.localeCompare(b.path));
  }

  async chunks(query: string, options: ChunkSearchOptions = {}): Promise<PassageHit[]> {
    this.tables.assertOpen();
    const { signal } = options;
    signal?.throwIfAborted();
    const k = checkK(options.k);
    const words = ftsQuery(typeof query === 'string' ? query : '');
    if (!words) throw new QuireError('invalid_input', 'Type some words to search for.');
    const embedder = this.vectors.textEmbedder();
    const requested = options.mode ?? (embedder ? 'hybrid' : 'bm25');
    const mode: SearchMode = embedder ? requested : 'bm25';
    const scope = this.contentScope(options.filter);
    if (scope.allowed.size === 0) return [];
    const hit = (row: ChunkRow, score: number) =>
      this.chunkHit(row, score, query, mode, scope, options.withText ?? false);
    const prior = options.documentPrior ?? true;

    if (mode === 'bm25') {
      const rows = await this.bm25(words, scope, k, prior, signal);
      return rows.slice(0, k).flatMap((row) => hit(row, row.score));
    }
    const queryVector = await this.embedQuery(embedder!, query, signal);
    if (mode === 'dense') {
      const ranked = await this.dense(queryVector, scope, k, signal);
      const rows = await this.chunksById(
        ranked.map((found) => found.id),
        signal,
      );
      return ranked
        .filter((found) => rows.has(found.id))
        .flatMap((found) => hit(rows.get(found.id)!, found.score));
    }
    const [lexical, semantic] = await Promise.all([
      this.bm25(words, scope, Math.max(k, FUSION_DEPTH), prior, signal),
      this.dense(queryVector, scope, Math.max(k, FUSION_DEPTH), signal),
    ]);
    const fused = reciprocalRankFusion([
      lexical.map((row) => row.id),
      semantic.map((found) => found.id),
    ]).slice(0, k);
    const known = new Map<string, ChunkRow>(lexical.map((row) => [row.id, row]));
    const fetched = await this.chunksById(
      fused.map((found) => found.key).filter((id) => !known.has(id)),
      signal,
    );
    return fused.flatMap((found) => {
      const row = known.get(found.key) ?? fetched.get(found.key);
      return row ? hit(row, found.score) : [];
    });
  }

  async pages(query: string, options: PageSearchOptions = {}): Promise<PassageHit[]> {
    this.tables.assertOpen();
    const { signal } = options;
    signal?.throwIfAborted();
    const k = checkK(options.k);
    if (typeof query !== 'string' || !query.trim())
      throw new QuireError('invalid_input', 'Type some words to search for.');
    const embedder = this.vectors.pageEmbedder();
    const kernel = this.vectors.pageKernel();
    if (!embedder || !kernel) {
      throw new QuireError(
        'model_unavailable',
        'Page search needs a page embedder whose vectors are complete.',
      );
    }
    const scope = this.contentScope(options.filter);
    if (scope.allowed.size === 0 || kernel.size === 0) return [];
    const vectors = await abortable(embedder.embedQuery(query, signal ? { signal } : {}), signal);
    if (vectors.length === 0) return [];
    const packed = packNormalised(vectors, embedder.dimensions);
    // Pages outside the scope (or hidden) are never scored, so the k best in scope come back; with
    // nothing to leave out, the kernel keeps its fast candidate search.
    const allow =
      scope.where === null
        ? undefined
        : (key: string) => scope.allowed.has(key.slice(0, key.lastIndexOf(':')));
    // The index ranks from pooled, coded vectors; its best few dozen are re-ranked exactly from
    // their fp16 vectors, so the top k match exact search over the raw vectors.
    const depth = Math.max(k, PAGE_RESCORE_DEPTH);
    const shortlist = kernel.search(packed, vectors.length, depth, allow ? { allow } : {});
    const table = await this.vectors.pageTable();
    if (!table) throw new QuireError('model_unavailable', 'The page vector table is missing.');
    const rescored = await rescorePages(
      table,
      shortlist,
      packed,
      vectors.length,
      embedder.dimensions,
      signal,
    );
    return this.pageHits(rescored.slice(0, k), query, scope, options.withText ?? false, signal);
  }

  private async pageHits(
    ranked: Array<{ key: string; score: number }>,
    query: string,
    scope: ContentScope,
    withText: boolean,
    signal: AbortSignal | undefined,
  ): Promise<PassageHit[]> {
    const rows = new Map<string, Record<string, unknown>>();
    for (const ids of inBatches(ranked.map((found) => found.key))) {
      const found = this.tables.pages
        .query()
        .where(sqlIn('id', ids))
        .select(['id', 'content_hash', 'page', 'text'])
        .toArray();
      for (const row of await abortable(found, signal))
        rows.set(String(row.id), row as Record<string, unknown>);
    }
    return ranked.flatMap((found) => {
      const row = rows.get(found.key);
      const owner = row ? ownerFor(this.owners, String(row.content_hash), scope) : undefined;
      if (!row || !owner) return [];
      return [
        {
          documentId: owner.id,
          path: owner.path,
          page: Number(row.page),
          chunkId: null,
          score: found.score,
          snippet: snippetAround(String(row.text), query),
          boxes: [],
          mode: 'pages' as const,
          ...(withText ? { text: String(row.text) } : {}),
        },
      ];
    });
  }

  private async embedQuery(
    embedder: TextEmbedder,
    query: string,
    signal: AbortSignal | undefined,
  ): Promise<Float32Array> {
    const [vector] = await abortable(
      embedder.embed([query], { kind: 'query', ...(signal ? { signal } : {}) }),
      signal,
    );
    if (!vector)
      throw new QuireError('model_failed', `Embedder ${embedder.id} returned no vector for the query.`);
    return checkedVector(vector, embedder.dimensions, embedder.id);
  }

  private async bm25(
    words: string,
    scope: ContentScope,
    limit: number,
    documentPrior: boolean,
    signal: AbortSignal | undefined,
  ): Promise<Array<ChunkRow & { score: number }>> {
    if (!this.fullText.ready) return [];
    await abortable(this.fullText.foldPending(), signal);
    const depth = documentPrior ? Math.max(limit, DOCUMENT_PRIOR_DEPTH) : limit;
    const query = this.tables.chunks
      .query()
      .fullTextSearch(words, { columns: 'search_text' })
      .select(['id', 'content_hash', 'page', 'text', 'boxes', '_score'])
      .limit(depth);
    if (scope.where) query.where(scope.where);
    const rows = (await abortable(query.toArray(), signal)) as Array<ChunkRow & { _score: number }>;
    const candidates = this.owned(rows, scope).map((row) => ({ ...row, score: row._score }));
    return (documentPrior ? applyDocumentPrior(candidates) : candidates).slice(0, limit);
  }

  private async dense(
    vector: Float32Array,
    scope: ContentScope,
    limit: number,
    signal: AbortSignal | undefined,
  ): Promise<Array<{ id: string; score: number }>> {
    const table = await this.vectors.textTable();
    if (!table) return [];
    const query = table
      .vectorSearch(vector)
      .distanceType('cosine')
      // Used only once the partitioned index exists. Re-ranking the candidates measured faster
      // than without it here (p95 55 vs 148 ms at 100,000), though the probed distances are exact.
      .nprobes(20)
      .refineFactor(4)
      .select(['chunk_id', 'content_hash', '_distance'])
      .limit(limit);
    if (scope.where) query.where(scope.where);
    const rows = (await abortable(query.toArray(), signal)) as Array<{
      chunk_id: string;
      content_hash: string;
      _distance: number;
    }>;
    return this.owned(rows, scope).map((row) => ({ id: row.chunk_id, score: 1 - row._distance }));
  }

  private async chunksById(ids: string[], signal: AbortSignal | undefined): Promise<Map<string, ChunkRow>> {
    const rows = new Map<string, ChunkRow>();
    for (const batch of inBatches(ids)) {
      const found = this.tables.chunks
        .query()
        .where(sqlIn('id', batch))
        .select(['id', 'content_hash', 'page', 'text', 'boxes'])
        .toArray();
      for (const row of (await abortable(found, signal)) as ChunkRow[]) rows.set(row.id, row);
    }
    return rows;
  }

  private chunkHit(
    row: ChunkRow,
    score: number,
    query: string,
    mode: SearchMode,
    scope: ContentScope,
    withText: boolean,
  ): PassageHit[] {
    // The owners may have changed since the rows were ranked (a reader catching up meanwhile).
    const owner = ownerFor(this.owners, row.content_hash, scope);
    if (!owner) {
      this.behindWriter = this.owners.owners();
      return [];
    }
    return [
      {
        documentId: owner.id,
        path: owner.path,
        page: Number(row.page),
        chunkId: row.id,
        score,
        snippet: snippetAround(row.text, query),
        boxes: parseBoxes(row.boxes),
        mode,
        ...(withText ? { text: row.text } : {}),
      },
    ];
  }
}

/** Each form found, most passages first (then alphabetically), from the forms of each passage. */
function byPassages(passages: string[][]): string[] {
  const counts = new Map<string, number>();
  for (const forms of passages) for (const form of forms) counts.set(form, (counts.get(form) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([form]) => form);
}

function checkK(k: number | undefined): number {
  const value = k ?? DEFAULT_K;
  if (!Number.isInteger(value) || value < 1 || value > MAX_K) {
    throw new QuireError('invalid_input', `k must be a whole number from 1 to ${MAX_K}.`);
  }
  return value;
}
