/*
 * What the agent needs from the rest of core. The composition root implements these over the index,
 * the library and the models; tests implement them in memory.
 */
import type { DocumentInfo } from '../../shared/domain/library';
import type { DocumentMatch, Scope } from '../../shared/domain/scope';
import type { BoundingBox, SearchHit, SearchResult } from '../../shared/domain/search';
import type { OutlineEntry } from '../documents/pdf/pdfOutline';
import type { ModelRoles } from '../models/types';
import type { WebSearchProvider } from '../web/searxng';

export interface OpenedChunk {
  chunkId: string;
  documentId: string;
  path: string;
  page: number;
  text: string;
  boxes: BoundingBox[];
}

export interface OpenedPage {
  documentId: string;
  path: string;
  page: number;
  text: string;
  boxes?: BoundingBox[];
}

export type { OutlineEntry } from '../documents/pdf/pdfOutline';

export interface PageImageBytes {
  image: Uint8Array;
  /** The page's size in PDF points, the unit of regions and citation boxes. */
  pageWidth: number;
  pageHeight: number;
}

export type ChunkSearchMode = 'bm25' | 'dense' | 'hybrid';

export interface AgentPorts {
  searchChunks(
    query: string,
    options: { k: number; mode?: ChunkSearchMode; documentIds?: string[]; scope?: Scope },
    signal?: AbortSignal,
  ): Promise<SearchHit[]>;
  /**
   * Search with the question's other wordings fused in (`rewrite`) and the results re-ranked (`rerank`),
   * with notes on anything that fell back. Plain `searchChunks` is used when absent.
   */
  retrieve?(
    query: string,
    options: {
      k: number;
      mode?: ChunkSearchMode;
      rewrite: boolean;
      rerank: boolean;
      documentIds?: string[];
      scope?: Scope;
    },
    signal?: AbortSignal,
  ): Promise<SearchResult>;
  /** Late-interaction page search; throws QuireError 'unsupported' when no page embedder is configured. */
  searchPages(
    query: string,
    options: { k: number; scope?: Scope },
    signal?: AbortSignal,
  ): Promise<SearchHit[]>;
  /**
   * Every document that holds the term as a word, not the top k (with `related`, also words of its
   * stem); absent where the index cannot say.
   */
  searchDocuments?(
    query: string,
    options: { scope?: Scope; related?: boolean },
    signal?: AbortSignal,
  ): Promise<DocumentMatch[]>;
  /**
   * The documents a scope admits (null: all) and what was searched; throws when the scope names a
   * file that is gone or admits nothing. Absent: scopes cannot be used.
   */
  resolveScope?(scope: Scope | null): {
    documentIds: Set<string> | null;
    searched: string;
    missing: string[];
  };
  /** Set on a scoped run: what it searches, in the user's words. */
  scopeLabel?(): string;
  /** Set on a scoped run: the files inside the scope (the file tools look at no other). */
  scopePaths?(): Promise<Set<string>>;
  openChunk(chunkId: string): Promise<OpenedChunk | null>;
  openPage(documentId: string, page: number): Promise<OpenedPage | null>;
  /** The document's bookmarks with their pages ([] when it has none); absent when nothing can read outlines. */
  documentOutline?(documentId: string, signal?: AbortSignal): Promise<OutlineEntry[]>;
  /** The rendered page (PNG/JPEG/WebP) for a vision model, with the page's size in points (for regions). */
  pageImage(documentId: string, page: number): Promise<PageImageBytes | null>;
  /** Absolute folder paths; the file tools never look outside them. */
  libraryRoots(): Promise<string[]>;
  libraryDocuments(): Promise<DocumentInfo[]>;
  models: Pick<ModelRoles, 'chatModel'>;
  /** The web search provider while the user has web search on; null (or absent) otherwise. */
  webSearch?(): WebSearchProvider | null;
}
