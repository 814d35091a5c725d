import { isDiskFull } from '../common/diskSpace';
import { FullTextIndexes } from './content/fullText';
import {
  IndexContent,
  type ContentRemovedHook,
  type ContentStore,
  type PageImageSlots,
} from './content/indexContent';
import { IndexRecognizedText, type RecognizedText } from './content/recognizedText';
import { COLLECTIONS_TABLE, IndexCollections, type CollectionStore } from './documents/collections';
import { IndexDocuments, type DocumentCatalog } from './documents/documentCatalog';
import { IndexMaintenance, type Maintenance } from './maintenance/indexMaintenance';
import { IndexSearch, type Searcher } from './search/indexSearch';
import { resolveScope } from './search/scopeResolver';
import { IndexTables } from './tables';
import { IndexVectors, type VectorSets } from './vectors/indexVectors';
import type { PageKernelFactory } from './vectors/pageKernel';

export interface OpenIndexOptions {
  /** A folder (the app passes `<dataDir>/index`) or any LanceDB URI. */
  uri: string;
  /** Builds the in-memory MaxSim index for page search; the bundled kernel by default. */
  createPageKernel?: PageKernelFactory;
  /** Reads a page image (a path from PageImageRef) for page embedders that look at pixels. */
  loadPageImage?: (relativePath: string) => Promise<Uint8Array>;
  /** Told which content was deleted (at open, by a write, by garbage collection), e.g. to delete its page images. */
  onContentRemoved?: ContentRemovedHook;
  /** LanceDB's storage options for a URI on object storage (credentials in memory, never saved). */
  storageOptions?: Record<string, string>;
  /** Open a library another process writes: nothing is written, garbage is left to the writer. */
  readOnly?: boolean;
  /** Chunk vectors past which optimize() builds an approximate vector index (default 20,000). */
  vectorIndexRows?: number;
  /** Caps on LanceDB's caches, from the memory budget. */
  cacheLimits?: { indexBytes: number; metadataBytes: number };
}

/**
 * The LanceDB index, opened on a folder or URI: documents, their content (chunks and pages, keyed by
 * content hash) and the vectors of each embedder. Each part is its own module behind a small
 * interface; callers take the part they use.
 *
 * Crash rule: content rows are written first and become visible only once a `documents` row in
 * state `indexed` points at their hash. Content nobody points at is garbage, removed on open and by
 * `content.collectGarbage()`, so a crash between the two writes leaves nothing visible and nothing
 * duplicated.
 */
export class Index {
  private constructor(
    private readonly tables: IndexTables,
    readonly documents: DocumentCatalog,
    /** Saved scopes, kept beside the documents. */
    readonly collections: CollectionStore,
    readonly content: ContentStore & PageImageSlots,
    /** Scanned pages: which await OCR, and the text once they are read. */
    readonly recognized: RecognizedText,
    readonly vectors: VectorSets,
    readonly search: Searcher,
    readonly maintenance: Maintenance,
    private readonly parts: {
      vectors: IndexVectors;
      documents: IndexDocuments;
      collections: IndexCollections;
      fullText: FullTextIndexes;
    },
  ) {}

  static async open(options: OpenIndexOptions): Promise<Index> {
    const tables = await IndexTables.open(options.uri, {
      ...(options.storageOptions ? { storageOptions: options.storageOptions } : {}),
      readOnly: options.readOnly ?? false,
      ...(options.cacheLimits ? { cacheLimits: options.cacheLimits } : {}),
    });
    try {
      const fullText = new FullTextIndexes(tables);
      // Content owns which hashes await their images; vectors wait for them before embedding pages.
      const awaitingImages = new Set<string>();
      // Likewise for content whose scanned pages OCR is still reading.
      const awaitingText = new Set<string>();
      const vectors = new IndexVectors(tables, {
        ...(options.createPageKernel ? { createPageKernel: options.createPageKernel } : {}),
        ...(options.loadPageImage ? { loadPageImage: options.loadPageImage } : {}),
        awaitingImages: (hash) => awaitingImages.has(hash),
        awaitingText: (hash) => awaitingText.has(hash),
      });
      // Rows name content, and content lives while a row names it: each part holds the other's small interface.
      const documents: IndexDocuments = new IndexDocuments(tables, {
        committed: (hash) => content.committed(hash),
        releaseIfUnused: (hashes) => content.releaseIfUnused(hashes),
      });
      const content = new IndexContent(
        tables,
        documents,
        fullText,
        vectors,
        awaitingImages,
        options.onContentRemoved,
      );
      await documents.load();
      const collections = new IndexCollections(tables);
      await collections.load();
      await vectors.load();
      if (!tables.readOnly)
        await unlessDiskFull('removing what removed files left', () => content.removeGarbage());
      await fullText.load();
      if (!tables.readOnly) {
        await unlessDiskFull('building the full-text index', () => fullText.ensure());
        // A run killed before it folded its chunks in left them for readers, who cannot fold them:
        // the next writer does, even when it has nothing new to add.
        await unlessDiskFull('folding chunks a stopped run left', () => fullText.foldPending());
      }
      const recognized = new IndexRecognizedText(tables, fullText, vectors, awaitingText);
      const search = new IndexSearch(
        tables,
        documents,
        () => content.referencedHashes(),
        fullText,
        vectors,
        // Resolved on every scoped search: a pass over the documents, never a sort of them.
        (scope) => resolveScope(scope, documents.unordered(), collections),
      );
      const maintenance = new IndexMaintenance(tables, documents, fullText, vectors, options.vectorIndexRows);
      return new Index(tables, documents, collections, content, recognized, vectors, search, maintenance, {
        vectors,
        documents,
        collections,
        fullText,
      });
    } catch (error) {
      await tables.dispose();
      throw error;
    }
  }

  /**
   * A reader catches up with what its writer (another process, here or elsewhere) committed since it
   * opened: tables are read at their latest version already (`readConsistencyInterval: 0`); this
   * reloads what is known in memory: the index's record, documents (new and deleted), collections, vectors.
   */
  async refresh(): Promise<void> {
    this.tables.assertOpen();
    await this.tables.reloadMeta();
    await this.parts.documents.load();
    await this.parts.collections.load();
    await this.parts.vectors.load();
    await this.parts.fullText.load();
  }

  /** The versions of the index's tables, in one line: it changes whenever a writer commits. */
  versions(): Promise<string> {
    this.tables.assertOpen();
    return this.tables.versions([COLLECTIONS_TABLE]);
  }

  /** Bytes LanceDB's caches hold now, when they were capped (`cacheLimits`); null otherwise. */
  cacheBytes(): number | null {
    return this.tables.cacheBytes();
  }

  /** Waits for queued writes, then releases the database. Later calls fail with a clear error. */
  async dispose(): Promise<void> {
    if (this.tables.isDisposed) return;
    await this.tables.dispose();
    this.parts.vectors.dispose();
  }
}

/**
 * Tidying at open is worth skipping when the disk is full: the index reads as it is, so a search or a
 * listing still answers; the next open with room does it.
 */
async function unlessDiskFull(skipped: string, tidy: () => Promise<unknown>): Promise<void> {
  try {
    await tidy();
  } catch (error) {
    if (!isDiskFull(error)) throw error;
    console.error(`quire: the disk is full: ${skipped} waits for the next start with room.`);
  }
}
