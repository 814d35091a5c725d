import { sqlIn, sqlString } from '../sql';
import type { IndexTables } from '../tables';
import { columnValues, inBatches, replaceScope } from '../tableIo';

type Row = Record<string, unknown>;

/** One file's content, as rows of the chunks and pages tables. */
export interface ContentRows {
  contentHash: string;
  chunks: Row[];
  pages: Row[];
}

/**
 * Which content hashes may already have rows. A hash it rules out is appended without asking the
 * tables, whose filtered reads cost tens of milliseconds once many small writes have piled up.
 */
export interface RowsOnRecord {
  mayHaveRows(contentHash: string): boolean;
  /** Called before rows of this hash are written. */
  willHaveRows(contentHash: string): void;
}

interface PendingWrite {
  rows: ContentRows;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit of content: the files whose rows arrive while a write runs go in the next write
 * together. Every commit is a LanceDB version and a fragment that later lookups pay for, and on a
 * folder of small files two commits per file (chunks, then pages) were most of the time spent on
 * this thread. Content new to the index, the usual case, is appended for the whole group in one
 * commit per table; content that already has rows (a retry after a crash, a rewrite) is replaced
 * hash by hash, as before. Chunks go before pages, whose presence is what `has()` reports.
 */
export class ContentWrites {
  private pending: PendingWrite[] = [];

  constructor(
    private readonly tables: IndexTables,
    /** Runs inside the write queue after each group, with the hashes whose pages were rewritten. */
    private readonly afterWrite: (written: ContentRows[], rewritten: string[]) => Promise<void>,
    private readonly onRecord: RowsOnRecord,
  ) {}

  write(rows: ContentRows): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.pending.push({ rows, resolve, reject });
      // One write-queue turn takes every file that arrived meanwhile, without waiting longer.
      if (this.pending.length === 1) {
        this.tables
          .exclusive(() => this.writePending())
          .catch((error: unknown) => {
            for (const pending of this.pending.splice(0)) pending.reject(error);
          });
      }
    });
  }

  private async writePending(): Promise<void> {
    const group = this.pending.splice(0);
    try {
      this.tables.assertOpen();
      // The same content twice in one group (two copies read at once): the last rows win.
      const byHash = new Map(group.map((pending) => [pending.rows.contentHash, pending.rows]));
      const written = [...byHash.values()];
      const rewritten = await this.writeGroup(written);
      await this.afterWrite(written, rewritten);
    } catch (error) {
      for (const pending of group) pending.reject(error);
      return;
    }
    for (const pending of group) pending.resolve();
  }

  /** Writes the group's rows; returns the hashes whose pages existed before (rewritten). */
  private async writeGroup(group: ContentRows[]): Promise<string[]> {
    const { chunks, pages } = this.tables;
    const hashes = group.map((rows) => rows.contentHash);
    const toAsk = hashes.filter((hash) => this.onRecord.mayHaveRows(hash));
    const [withPages, withChunks] = await Promise.all([
      storedHashes(this.tables.pages, toAsk),
      storedHashes(chunks, toAsk),
    ]);
    for (const hash of hashes) this.onRecord.willHaveRows(hash);
    const fresh = group.filter(
      (rows) => !withPages.has(rows.contentHash) && !withChunks.has(rows.contentHash),
    );
    const stored = group.filter((rows) => !fresh.includes(rows));
    const freshChunks = fresh.flatMap((rows) => rows.chunks);
    if (freshChunks.length > 0) await chunks.add(freshChunks);
    for (const rows of stored) {
      await replaceScope(chunks, 'id', rows.chunks, `content_hash = ${sqlString(rows.contentHash)}`);
    }
    const freshPages = fresh.flatMap((rows) => rows.pages);
    if (freshPages.length > 0) await pages.add(freshPages);
    for (const rows of stored) {
      await replaceScope(pages, 'id', rows.pages, `content_hash = ${sqlString(rows.contentHash)}`);
    }
    return hashes.filter((hash) => withPages.has(hash));
  }
}

/** Which of `hashes` have rows in `table`. */
async function storedHashes(table: IndexTables['pages'], hashes: string[]): Promise<Set<string>> {
  const found = new Set<string>();
  if (hashes.length === 0) return found;
  for (const batch of inBatches(hashes)) {
    for (const hash of await columnValues(table, 'content_hash', sqlIn('content_hash', batch))) {
      found.add(hash);
    }
  }
  return found;
}
