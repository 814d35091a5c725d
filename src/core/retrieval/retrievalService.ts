/*
 * Search as core offers it: the index's search behind query rewriting and re-ranking, and the one owner
 * of the reranker model (found at `--reranker` / QUIRE_RERANKER, else a downloaded catalogue reranker).
 */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import type { Scope } from '../../shared/domain/scope';
import type { SearchMode } from '../../shared/domain/search';
import { QuireError } from '../../shared/errors';
import type { Index } from '../index/openIndex';
import type { PassageHit } from '../index/search/indexSearch';
import type { ResolvedScope } from '../index/search/scopeResolver';
import type { MemoryBudgetService } from '../memory/memoryBudgetService';
import type { ModelLoadRequest } from '../memory/planFit';
import { candidatesFor, localFileName } from '../models/catalogue/catalogue';
import { createLlamaReranker, type LlamaReranker } from '../models/llama/llamaReranker';
import type { ChatModel, Reranker } from '../models/types';
import { retrieve, type Retrieval, type RetrieveOptions } from './retriever';

/** The reranker's window when its entry does not say (one query and one passage). */
const RERANKER_CONTEXT = 1024;

/** What the memory planner weighs before the reranker's weights and context are loaded. */
function rerankerLoadRequest(reranker: LlamaReranker): ModelLoadRequest {
  const entry = reranker.memoryEntry();
  return {
    id: entry.id,
    label: entry.label,
    roles: [],
    weightsBytes: reranker.description.weightsBytes,
    contextSize: entry.contextSize ?? RERANKER_CONTEXT,
    contextBytesPerToken: reranker.description.contextBytesPerToken,
    contextFixedBytes: reranker.description.contextFixedBytes,
    // The context holds one query and one passage: it is not cut.
    minContextSize: entry.contextSize ?? RERANKER_CONTEXT,
  };
}

export interface RetrievalServiceDeps {
  index: () => Index;
  /** The chat model that rewrites queries and re-ranks listwise when there is no reranker. */
  chatModel: () => Promise<ChatModel | null>;
  memory: MemoryBudgetService;
  /** Downloaded models live in `<dataDir>/models`. */
  dataDir: string;
  /** A reranker GGUF given by the user; otherwise a downloaded catalogue reranker is used. */
  rerankerPath?: string | null;
  gpu?: 'auto' | false;
  threads?: number;
  /**
   * Checks a search mode before searching (search/chunkSearch.ts): throws when dense search cannot
   * run, and gives the notice for a search that runs on BM25 alone.
   */
  checkMode?: (mode: SearchMode | undefined) => { notice: string | null };
}

export type SearchOptions = Omit<RetrieveOptions, 'mode'> & {
  mode?: SearchMode;
  /** Only these documents (a clarified question's scope, a referenced document). */
  documentIds?: string[];
  /** The caller's scope, applied by the index before ranking. */
  scope?: Scope;
};

export class RetrievalService {
  private loading: Promise<LlamaReranker | null> | null = null;

  constructor(private readonly deps: RetrievalServiceDeps) {}

  async search(query: string, options: SearchOptions): Promise<Retrieval> {
    const { notice } = this.deps.checkMode?.(options.mode) ?? { notice: null };
    const index = this.deps.index();
    // Once for the question, not once per form searched: it fails here when the scope admits nothing.
    const scope = index.search.resolveScope(options.scope);
    const found = await retrieve(
      {
        search: (text, o) => this.searchIndex(index, text, { ...o, documentIds: options.documentIds, scope }),
        reranker: () => this.reranker(),
        chatModel: () => this.deps.chatModel(),
      },
      query,
      options,
    );
    const { searched } = scope;
    const keywords = options.mode === 'dense' || options.mode === 'pages' ? null : index.search.keywordNote();
    const changed = index.search.changedNote();
    const notes = [
      ...found.notes,
      ...[notice, keywords, changed].filter((note): note is string => note !== null),
    ];
    return { ...found, notes, searched };
  }

  /** The reranker GGUF in use, or null when none is configured or downloaded. */
  rerankerPath(): string | null {
    if (this.deps.rerankerPath) return this.deps.rerankerPath;
    for (const model of candidatesFor('rerank')) {
      const weights = model.files[0];
      if (!weights) continue;
      const path = join(this.deps.dataDir, 'models', localFileName(model, weights.fileName));
      if (existsSync(path)) return path;
    }
    return null;
  }

  /**
   * Created on first use; a file that cannot be read as a GGUF is an error the caller reports. A
   * reranker the memory budget cannot hold now is not loaded: its ranking fails with the planner's
   * reason (so search falls back and says why), and the next search asks the budget again.
   */
  async reranker(): Promise<Reranker | null> {
    const loaded = await this.load();
    if (!loaded) return null;
    if ('refused' in loaded) {
      return {
        id: loaded.id,
        rank: () => Promise.reject(new QuireError('model_unavailable', loaded.refused)),
      };
    }
    // The memory budget shows it loaded once it has ranked (its host starts on first use).
    return {
      id: loaded.id,
      rank: async (query, passages, options) => {
        try {
          return await loaded.rank(query, passages, options);
        } finally {
          this.deps.memory.setEntry(loaded.memoryEntry());
        }
      },
    };
  }

  private load(): Promise<LlamaReranker | { id: string; refused: string } | null> {
    const path = this.rerankerPath();
    if (!path) return Promise.resolve(null);
    this.loading ??= createLlamaReranker({
      modelPath: path,
      gpu: this.deps.gpu ?? 'auto',
      // Like the chat model: every core but one, so the app stays responsive.
      threads: this.deps.threads ?? Math.max(1, Math.min(8, availableParallelism() - 1)),
    }).then(
      (reranker) => {
        this.deps.memory.setEntry(reranker.memoryEntry());
        return reranker;
      },
      (error: unknown) => {
        this.loading = null;
        throw error;
      },
    );
    return this.loading.then((reranker) => {
      // Asked while it is not in memory yet: what else loaded meanwhile may leave no room for it.
      if (!reranker || reranker.memoryEntry().loaded) return reranker;
      const plan = this.deps.memory.plan([rerankerLoadRequest(reranker)]);
      if (plan.decision !== 'refused') return reranker;
      return { id: reranker.id, refused: `it does not fit in memory now: ${plan.reason.replace(/\.$/, '')}` };
    });
  }

  /** Stops the reranker's host and takes it out of the memory budget. */
  async dispose(): Promise<void> {
    const reranker = await this.loading?.catch(() => null);
    this.loading = null;
    if (!reranker) return;
    this.deps.memory.removeEntry(reranker.memoryEntry().id);
    await reranker.dispose();
  }

  private searchIndex(
    index: Index,
    text: string,
    options: {
      k: number;
      mode?: SearchMode;
      documentIds?: string[] | undefined;
      scope: ResolvedScope;
      signal?: AbortSignal;
    },
  ): Promise<PassageHit[]> {
    const common = {
      k: options.k,
      // The reranker judges whole passages: they come with the hits rather than read one by one.
      withText: true,
      filter: {
        ...(options.documentIds ? { documentIds: options.documentIds } : {}),
        resolvedScope: options.scope,
      },
      ...(options.signal ? { signal: options.signal } : {}),
    };
    if (options.mode === 'pages') return index.search.pages(text, common);
    return index.search.chunks(text, { ...common, ...(options.mode ? { mode: options.mode } : {}) });
  }
}
