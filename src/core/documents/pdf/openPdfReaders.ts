import { stat } from 'node:fs/promises';
import { openPdfPageReader, type PdfPageReader } from './pdfPageReaders';

/** How many PDFs stay open between calls: the few a user is reading, not the library. */
const MAX_OPEN = 4;
/** A PDF no one asked about for this long is closed, giving its memory back. */
const IDLE_CLOSE_MS = 30_000;

interface OpenReader {
  /** The file as it was when opened: a changed file is opened again. */
  mtimeMs: number;
  size: number;
  reader: Promise<PdfPageReader>;
  users: number;
  lastUsed: number;
  /** Closed once its last user is done (evicted or changed while in use). */
  retired: boolean;
  closed: Promise<void> | null;
}

/**
 * PDFs kept open for reading one page after another. Opening a PDF costs about twice what reading a
 * page of it does, and the viewer asks for many pages of the same file at once (a scroll through a
 * filing): each call borrows the open reader instead of opening the file again.
 */
export class OpenPdfReaders {
  private readonly open = new Map<string, OpenReader>();
  private readonly idleTimer: NodeJS.Timeout;
  private disposed = false;

  constructor() {
    this.idleTimer = setInterval(() => this.closeIdle(), IDLE_CLOSE_MS / 2);
    this.idleTimer.unref();
  }

  /** Runs `read` with an open reader of the PDF at `path` (a real path inside the library). */
  async use<T>(path: string, read: (reader: PdfPageReader) => Promise<T>): Promise<T> {
    if (this.disposed) throw new Error('The PDF readers are closed.');
    const file = await stat(path);
    let entry = this.open.get(path);
    if (entry && (entry.mtimeMs !== file.mtimeMs || entry.size !== file.size)) {
      this.retire(path, entry);
      entry = undefined;
    }
    if (!entry) {
      entry = {
        mtimeMs: file.mtimeMs,
        size: file.size,
        reader: openPdfPageReader(path, undefined),
        users: 0,
        lastUsed: Date.now(),
        retired: false,
        closed: null,
      };
      this.open.set(path, entry);
      // A file that cannot be opened is not kept: the next call tries again and says why.
      entry.reader.catch(() => {
        if (this.open.get(path) === entry) this.open.delete(path);
      });
      this.evictBeyondLimit();
    }
    entry.users += 1;
    try {
      return await read(await entry.reader);
    } finally {
      entry.users -= 1;
      entry.lastUsed = Date.now();
      if (entry.retired && entry.users === 0) await closeReader(entry);
    }
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    clearInterval(this.idleTimer);
    const entries = [...this.open.values()];
    this.open.clear();
    await Promise.all(entries.map((entry) => closeReader(entry)));
  }

  private retire(path: string, entry: OpenReader): void {
    this.open.delete(path);
    entry.retired = true;
    if (entry.users === 0) void closeReader(entry);
  }

  private evictBeyondLimit(): void {
    const byAge = [...this.open.entries()].sort(([, a], [, b]) => a.lastUsed - b.lastUsed);
    for (const [path, entry] of byAge.slice(0, Math.max(0, byAge.length - MAX_OPEN)))
      this.retire(path, entry);
  }

  private closeIdle(): void {
    const now = Date.now();
    for (const [path, entry] of [...this.open.entries()]) {
      if (entry.users === 0 && now - entry.lastUsed > IDLE_CLOSE_MS) this.retire(path, entry);
    }
  }
}

/** Closes an entry's reader once, however many paths lead here. */
function closeReader(entry: OpenReader): Promise<void> {
  entry.closed ??= entry.reader.then(
    (reader) => reader.close(),
    () => undefined,
  );
  return entry.closed;
}
