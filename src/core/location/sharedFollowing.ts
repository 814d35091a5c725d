import { sep } from 'node:path';

/** How often a reader of a shared library looks for its writer's new commits. */
const REFRESH_MS = 30_000;

/** Refreshes a reader now and then (its writer commits elsewhere); returns the stop. */
export function followWriter(refresh: () => Promise<void>, everyMs = REFRESH_MS): () => void {
  const timer = setInterval(() => {
    refresh().catch((error: unknown) => console.error('quire: could not refresh the shared library', error));
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}

/** A shared library's writer owns only the documents under its own folders (it prunes no others). */
export function underFolders(folders: () => string[]): (doc: { path: string }) => boolean {
  return (doc) =>
    folders().some((folder) => doc.path.startsWith(folder.endsWith(sep) ? folder : folder + sep));
}

/**
 * A reader that catches up only when its writer committed something since the last time: `mark`
 * names what the writer committed, cheaply (table versions, a file's size and time), and `refresh`
 * reloads what the reader holds in memory. Callers at the same moment share one check.
 */
export class WriterFollower {
  /** The mark the reader last caught up with; null until the first catch-up, which always reloads. */
  private caughtUpWith: string | null = null;
  private checking: Promise<void> | null = null;

  constructor(
    private readonly mark: () => Promise<string>,
    private readonly refresh: () => Promise<void>,
  ) {}

  catchUp(): Promise<void> {
    this.checking ??= this.check().finally(() => {
      this.checking = null;
    });
    return this.checking;
  }

  private async check(): Promise<void> {
    // Marked before reloading: a commit during the reload changes the mark, so the next call reloads again.
    const mark = await this.mark();
    if (mark === this.caughtUpWith) return;
    await this.refresh();
    this.caughtUpWith = mark;
  }
}
