import type { FullTextIndexes } from '../content/fullText';
import type { DocumentCatalog } from '../documents/documentCatalog';
import type { IndexStats } from '../records';
import type { IndexTables } from '../tables';
import type { IndexVectors } from '../vectors/indexVectors';
import { optimizeKeepingReaders } from './versionKeeping';

export interface OptimizeOptions {
  /** Versions older than this are removed; by default, those replaced over a minute ago (versionKeeping.ts). */
  cleanupOlderThan?: Date;
}

export interface OptimizeResult {
  versionsRemoved: number;
  bytesRemoved: number;
}

/** Keeping the index compact and its indexes current; schema migrations run when it opens. */
export interface Maintenance {
  /**
   * Compacts small writes, folds new rows into the full-text index, and removes old versions and
   * files no version references (left by a killed write). Call it when the app is idle.
   */
  optimize(options?: OptimizeOptions): Promise<OptimizeResult>;
  /** Version counts per table, to see what optimize() can reclaim. */
  versionCounts(): Promise<Record<string, number>>;
  stats(): Promise<IndexStats>;
}

export class IndexMaintenance implements Maintenance {
  constructor(
    private readonly tables: IndexTables,
    private readonly documents: Pick<DocumentCatalog, 'list'>,
    private readonly fullText: FullTextIndexes,
    private readonly vectors: Pick<IndexVectors, 'ensureVectorIndex'>,
    /** Chunk vectors past which optimize() builds an approximate vector index. */
    private readonly vectorIndexRows: number | undefined,
  ) {}

  optimize(options: OptimizeOptions = {}): Promise<OptimizeResult> {
    return this.tables.exclusive(async () => {
      this.tables.assertOpen();
      await this.fullText.ensure();
      await this.vectors.ensureVectorIndex(this.vectorIndexRows);
      const result: OptimizeResult = { versionsRemoved: 0, bytesRemoved: 0 };
      for (const table of await this.tables.allTables()) {
        const stats = await optimizeKeepingReaders(table, { ...options, deleteUnverified: true });
        result.versionsRemoved += stats.prune.oldVersionsRemoved;
        result.bytesRemoved += stats.prune.bytesRemoved;
      }
      this.fullText.folded();
      return result;
    });
  }

  async versionCounts(): Promise<Record<string, number>> {
    this.tables.assertOpen();
    const counts: Record<string, number> = {};
    for (const table of await this.tables.allTables()) {
      counts[table.name] = (await table.listVersions()).length;
    }
    return counts;
  }

  async stats(): Promise<IndexStats> {
    this.tables.assertOpen();
    const documents = this.documents.list();
    return {
      documents: documents.length,
      indexedDocuments: documents.filter((d) => d.state === 'indexed').length,
      chunks: await this.tables.chunks.countRows(),
      pages: await this.tables.pages.countRows(),
    };
  }
}
