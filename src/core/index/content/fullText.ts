import { Index as LanceIndex } from '@lancedb/lancedb';

import { optimizeKeepingReaders } from '../maintenance/versionKeeping';
import type { IndexTables } from '../tables';

/**
 * Rows the full-text index has not absorbed are scanned at query time, which is slow (about 1 s per
 * query with 9,000 of them), so writes fold them in past this many. Folding rewrites the table,
 * so the threshold also grows with the table (a tenth of it) to keep the total work linear.
 */
const FTS_REFRESH_ROWS = 2000;
const FTS_REFRESH_FRACTION = 0.1;

/**
 * The scalar and full-text indexes of the content tables, and how many chunks the full-text index
 * has not absorbed yet. Content writes report what they added; search folds the rest in first.
 */
export class FullTextIndexes {
  private ftsReady = false;
  private pagesIndexed = false;
  private unindexedChunks = 0;

  constructor(private readonly tables: IndexTables) {}

  async load(): Promise<void> {
    const fts = (await this.tables.chunks.listIndices()).find((index) => index.indexType === 'FTS');
    this.ftsReady = fts !== undefined;
    this.pagesIndexed = (await this.tables.pages.listIndices()).length > 0;
    this.unindexedChunks = fts ? ((await this.tables.chunks.indexStats(fts.name))?.numUnindexedRows ?? 0) : 0;
  }

  /** Whether BM25 can run at all (the full-text index exists once there were chunks). */
  get ready(): boolean {
    return this.ftsReady;
  }

  /**
   * What a reader (of a shared library, or `quire mcp` beside the app) should be told while its
   * writer has chunks not yet folded in (a run under way, or one killed before it folded): those are
   * only scanned, and the scan can miss them. Null otherwise.
   */
  readerNote(): string | null {
    if (!this.tables.readOnly || !this.ftsReady || this.unindexedChunks === 0) return null;
    const passages = this.unindexedChunks === 1 ? '1 passage' : `${this.unindexedChunks} passages`;
    return (
      `${passages} of this library are not in its keyword index yet: keyword search may miss them ` +
      'until the one indexing it folds them in (the app once it is idle, `quire index` when its run ends).'
    );
  }

  /** Chunks were written: they count towards the next fold. Runs inside the write queue. */
  added(chunks: number): void {
    this.unindexedChunks += chunks;
  }

  /** The tables were optimised, which folds every chunk in. */
  folded(): void {
    this.unindexedChunks = 0;
  }

  /**
   * Creates each index once its table has rows (LanceDB cannot train on an empty table): full-text
   * on the chunks' search text, btrees on the ids and hashes that lookups and filters use. Folds
   * unindexed chunks into the full-text index when too many have piled up. Runs inside the write queue.
   */
  async ensure(): Promise<void> {
    const { chunks, pages } = this.tables;
    if (!this.ftsReady && (await chunks.countRows()) > 0) {
      await chunks.createIndex('search_text', {
        config: LanceIndex.fts({ stem: true, language: 'English', removeStopWords: true }),
        replace: true,
      });
      for (const column of ['id', 'content_hash']) {
        await chunks.createIndex(column, { config: LanceIndex.btree(), replace: true });
      }
      this.ftsReady = true;
      this.unindexedChunks = 0;
    }
    if (!this.pagesIndexed && (await pages.countRows()) > 0) {
      for (const column of ['id', 'content_hash']) {
        await pages.createIndex(column, { config: LanceIndex.btree(), replace: true });
      }
      this.pagesIndexed = true;
    }
    if (this.unindexedChunks > FTS_REFRESH_ROWS) {
      const total = await chunks.countRows();
      if (this.unindexedChunks > (total - this.unindexedChunks) * FTS_REFRESH_FRACTION) {
        await optimizeKeepingReaders(chunks);
        this.unindexedChunks = 0;
      }
    }
  }

  /**
   * Lance (0.31) answers full-text queries over rows its index has not absorbed by a scan that misses
   * many matches (stemmed and lower-cased words among them), so a document would not be found until
   * the next optimize. Rows written since the last fold are folded in before the first search needs them.
   * A reader of a shared library writes nothing: it searches them as they are (see `readerNote`).
   */
  async foldPending(): Promise<void> {
    if (this.unindexedChunks === 0 || this.tables.readOnly) return;
    await this.tables.exclusive(async () => {
      if (this.unindexedChunks === 0 || this.tables.isDisposed) return;
      await optimizeKeepingReaders(this.tables.chunks);
      this.unindexedChunks = 0;
    });
  }
}
