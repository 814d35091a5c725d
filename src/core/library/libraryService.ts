import { stat } from 'node:fs/promises';
import type { FSWatcher } from 'chokidar';
import type { LibraryRoot, LibrarySnapshot, SkippedFile } from '../../shared/domain/library';
import { compareLibraryPaths } from '../../shared/domain/libraryOrder';
import { QuireError } from '../../shared/errors';
import { Emitter } from '../common/emitter';
import { idForPath } from '../common/ids';
import { isInside } from '../common/paths';
import { documentKindOf } from '../documents/readers/formatReaders';
import { foldersOfRows, foundDocument, fromRow, listedRow, RowBatcher, toDocumentInfo } from './documentRows';
import type { DocumentRows } from './documentRows';
import { DocumentsInOrder } from './documentsInOrder';
import { checkFolder, refuseOverlap } from './folderCheck';
import { RemovedFolders, unfinished, type RemovedFolder } from './removedFolders';
import { walkDocuments } from './folderWalker';
import { watchFolder } from './folderWatcher';
import { LibraryStore, type StoredDocument } from './libraryStore';
import { limitedPageCounter, NOT_COUNTED, type PageCount } from './pageCounter';
import { checkFile, realRoots, requireInLibrary } from './pathPolicy';

/** How long an undoable removal can be taken back. */
const REMOVAL_UNDO_MS = 8_000;

export { toDocumentInfo, type RemovedFolder };

export interface LibraryEvents extends Record<string, unknown> {
  /** The whole library as the UI shows it; coalesced, at most every `changeDelayMs`. */
  changed: LibrarySnapshot;
  /** A file appeared or its size/mtime changed. */
  documentUpdated: StoredDocument;
  documentRemoved: StoredDocument;
  /** A folder the user just added: its files are the ones the user is waiting for. */
  rootAdded: LibraryRoot;
}

export interface LibraryServiceOptions {
  dataDir: string;
  /**
   * Folders inside the data folder that hold only documents Quire fetched for the user (web
   * downloads): the one exception to the rule that nothing in the data folder joins the library.
   */
  documentFoldersInDataDir?: string[];
  /** Watch roots for changes (the app and `quire serve`); one-shot CLI commands do not. */
  watch: boolean;
  changeDelayMs?: number;
  /** Count PDFs' pages when listing them: for a library nothing reads (`quire library add`). */
  countPagesWhenListed?: boolean;
  /** How long an undoable removal can be taken back; 8 s by default. */
  removalUndoMs?: number;
}

/**
 * The library: the folders the user added and the documents in them, kept current by scanning and
 * watching. The index's `documents` table is the record of every document; the library serves it
 * from memory, with the states of files being read (queued, indexing) that need not outlive a run.
 * Listing opens no file: ingestion counts pages as it reads, so a dropped PDF is opened once, and
 * writes the row of every file it reads; a found file's row is written only if it was not taken up.
 */
export class LibraryService {
  readonly events = new Emitter<LibraryEvents>();
  private readonly store: LibraryStore;
  private readonly roots = new Map<string, LibraryRoot>();
  private readonly documents = new DocumentsInOrder();
  private readonly watchers = new Map<string, FSWatcher>();
  /** Per root: files seen but not read (links leading outside the library...), path -> reason. */
  private readonly skipped = new Map<string, Map<string, string>>();
  private readonly scans = new Set<Promise<void>>();
  /** Folders removed moments ago, kept for undo. */
  private readonly removed = new RemovedFolders();
  private readonly countPages: ((path: string, kind: StoredDocument['kind']) => Promise<PageCount>) | null;
  private changeTimer: NodeJS.Timeout | undefined;
  private closed = false;
  private rows: DocumentRows | null = null;
  /** A reader (of a shared library, or beside the app on its data folder): it lists its writer's documents and changes nothing. */
  private readOnly = false;
  /** A reader whose `library.json` is its writer's own (the same data folder): folders come from there. */
  private writerFolders = false;
  /**
   * Rows of files found, written a batch at a time. A row is dropped when its file went or changed
   * since, or when ingestion took the file up (it writes the row itself once the reading ends).
   */
  private readonly found = new RowBatcher(
    (rows) => this.requireRows().noteFiles(rows),
    (row) => {
      const doc = this.documents.get(row.id);
      return doc?.modifiedMs === row.modifiedMs && doc.state === row.state;
    },
  );

  constructor(private readonly options: LibraryServiceOptions) {
    this.store = new LibraryStore(options.dataDir);
    this.countPages = options.countPagesWhenListed ? limitedPageCounter() : null;
  }

  /**
   * Opens the library on the index's documents. A first-format `library.json` has its documents
   * moved into the index once. `readOnly` (a reader) lists the rows and scans nothing; its folders
   * are those of the rows, or with `writerFolders` (a reader on the writer's own data folder, where
   * `library.json` is the writer's) those the writer saved, read again on each reload.
   */
  async start(rows: DocumentRows, { readOnly = false, writerFolders = false } = {}): Promise<void> {
    this.rows = rows;
    this.readOnly = readOnly;
    this.writerFolders = readOnly && writerFolders;
    if (readOnly) return this.reload();
    const stored = await this.store.load();
    for (const root of stored.roots) this.roots.set(root.id, root);
    if (stored.legacyDocuments) {
      const kept = stored.legacyDocuments.filter((doc) => this.roots.has(doc.rootId));
      await rows.noteFiles(kept.map(listedRow));
      await this.store.retireFirstFormat(stored.roots);
    }
    await this.reload();
    for (const root of this.roots.values()) this.openRoot(root);
  }

  /** Lists the rows as they are now: at start, and on a reader's refresh after its writer committed. */
  async reload(): Promise<void> {
    // A writer's file that cannot be read now keeps the folders last read.
    const saved = this.writerFolders ? await this.store.readFolders() : null;
    const rows = this.requireRows().list();
    if (this.readOnly && !(this.writerFolders && saved === null)) {
      const folders = saved ?? foldersOfRows(rows);
      this.roots.clear();
      for (const root of folders) this.roots.set(root.id, root);
    }
    this.documents.clear();
    for (const row of rows) {
      const root = this.roots.get(row.rootId);
      if (root) this.documents.set(row.id, fromRow(row, root.path));
    }
    this.scheduleChanged();
  }

  /**
   * Every file of the folders, listed as the writer would list them (`quire library list`): a writer
   * waits for its scans; a reader walks the folders itself and adds the files its writer has not
   * indexed yet, in memory only (it writes no row and drops none).
   */
  async listFolderFiles(): Promise<void> {
    if (!this.readOnly) return this.whenIdle();
    await Promise.all([...this.roots.values()].map((root) => this.scanRoot(root)));
  }

  /** Resolves once every scan started so far has finished and the rows it found are written. */
  async whenIdle(): Promise<void> {
    while (this.scans.size > 0) await Promise.all([...this.scans]);
    await this.found.flush();
  }

  /** Whether a scan or a file the watcher saw is still being looked at. */
  get busy(): boolean {
    return this.scans.size > 0;
  }

  snapshot(): LibrarySnapshot {
    const documents = this.documents.listed();
    const skipped: SkippedFile[] = [];
    for (const [rootId, files] of this.skipped) {
      for (const [path, reason] of files) skipped.push({ rootId, path, reason });
    }
    skipped.sort((a, b) => compareLibraryPaths(a.path, b.path));
    return { roots: [...this.roots.values()], documents, skipped, scanning: this.scans.size > 0 };
  }

  /**
   * The real path of a library file about to be read (hashed, parsed, drawn); throws `outside_library`
   * when it no longer passes the path policy, e.g. it was replaced by a link that leads outside.
   */
  readablePath(path: string): Promise<string> {
    return requireInLibrary(path, this.rootPaths());
  }

  rootPaths(): string[] {
    return [...this.roots.values()].map((root) => root.path);
  }

  document(id: string): StoredDocument | undefined {
    return this.documents.get(id);
  }

  allDocuments(): StoredDocument[] {
    return [...this.documents.values()];
  }

  async addFolder(path: string): Promise<LibraryRoot> {
    this.refuseWhenReading();
    const folder = await checkFolder(path, this.options);
    refuseOverlap(folder, this.rootPaths());
    const root: LibraryRoot = {
      id: idForPath('root', folder),
      path: folder,
      addedAt: new Date().toISOString(),
      error: null,
    };
    this.roots.set(root.id, root);
    await this.save();
    this.events.emit('rootAdded', root);
    this.openRoot(root);
    this.scheduleChanged();
    return root;
  }

  /**
   * Takes a folder and its documents out of the library at once. When `undoable`, what it knew stays
   * aside for a few seconds: `undoRemove` puts it back as it was, and the index keeps the folder's content
   * until the window closes (see `isLeaving`); after that, reconciliation drops it from disk.
   */
  async removeFolder(rootId: string, { undoable = false } = {}): Promise<RemovedFolder> {
    this.refuseWhenReading();
    const root = this.roots.get(rootId);
    if (!root) throw new QuireError('not_found', 'That folder is not in the library.');
    const documents = [...this.documents.values()].filter((doc) => doc.rootId === rootId);
    this.roots.delete(rootId);
    this.skipped.delete(rootId);
    await this.watchers.get(rootId)?.close();
    this.watchers.delete(rootId);
    const undoMs = this.options.removalUndoMs ?? REMOVAL_UNDO_MS;
    const undoUntil = undoable ? this.removed.hold(root, documents, undoMs) : null;
    for (const doc of documents) this.removeDocument(doc);
    await this.save();
    this.scheduleChanged();
    return { rootId, undoUntil };
  }

  /** Puts back a folder removed moments ago, with what was known of its documents. */
  async undoRemove(rootId: string): Promise<LibraryRoot> {
    const held = this.removed.take(rootId);
    if (!held) throw new QuireError('not_found', 'That removal can no longer be undone.');
    const { root, documents } = held;
    try {
      refuseOverlap(root.path, this.rootPaths());
    } catch {
      throw new QuireError('already_exists', `${root.path} is in the library again.`);
    }
    this.roots.set(root.id, root);
    for (const doc of documents) this.documents.set(doc.id, doc);
    await this.save();
    // Files whose reading the removal stopped are read again; finished ones are kept as they were.
    for (const doc of unfinished(documents)) this.events.emit('documentUpdated', doc);
    this.openRoot(root);
    this.scheduleChanged();
    return root;
  }

  /** Whether a document left with a folder whose removal can still be undone: its content stays. */
  isLeaving(documentId: string): boolean {
    return this.removed.holds(documentId);
  }

  /**
   * What ingestion learned about a document (state, pages, error, content hash), for the list: the
   * row itself is written by ingestion, which commits a file's end state with its content.
   */
  updateDocument(
    id: string,
    patch: Partial<Omit<StoredDocument, 'id' | 'rootId' | 'path'>>,
  ): StoredDocument | null {
    const doc = this.documents.get(id);
    if (!doc) return null;
    const next = { ...doc, ...patch };
    this.documents.set(id, next);
    this.scheduleChanged();
    return next;
  }

  async dispose(): Promise<void> {
    this.closed = true;
    this.removed.clear();
    clearTimeout(this.changeTimer);
    await Promise.all([...this.watchers.values()].map((w) => w.close()));
    this.watchers.clear();
    await Promise.allSettled([...this.scans]);
    if (this.rows) await this.found.flush();
    if (!this.readOnly) await this.save();
    this.events.clear();
  }

  private openRoot(root: LibraryRoot): void {
    this.track(this.scanRoot(root));
    if (this.options.watch) this.watchRoot(root);
  }

  private track(scan: Promise<void>): void {
    const tracked = scan
      .catch((error: unknown) => console.error('quire: scan failed', error))
      .finally(() => {
        this.scans.delete(tracked);
        this.scheduleChanged();
      });
    this.scans.add(tracked);
  }

  private async scanRoot(root: LibraryRoot): Promise<void> {
    const problem = await checkFolder(root.path, this.options).then(
      () => null,
      (error: unknown) => (error instanceof Error ? error.message : String(error)),
    );
    this.setRootError(root.id, problem);
    if (problem) return;
    const seen = new Set<string>();
    const pending: Promise<void>[] = [];
    const skipped = new Map<string, string>();
    const walk = walkDocuments(root.path, {
      roots: await realRoots(this.rootPaths()),
      onSkipped: (path, reason) => skipped.set(path, reason),
    });
    for await (const file of walk) {
      if (this.closed || !this.roots.has(root.id)) return;
      const id = idForPath('doc', file.path);
      seen.add(id);
      pending.push(this.noteFile(root, file.path, file.bytes, file.modifiedMs));
      if (pending.length >= 256) await Promise.all(pending.splice(0));
    }
    await Promise.all(pending);
    if (this.roots.has(root.id)) this.skipped.set(root.id, skipped);
    // A reader leaves its writer's rows as they are, gone files included: the writer removes them.
    if (this.readOnly) return;
    for (const doc of [...this.documents.values()]) {
      if (doc.rootId === root.id && !seen.has(doc.id)) this.removeDocument(doc);
    }
  }

  /** A file the watcher saw: read if the path policy allows it, else listed as skipped. */
  private async noteWatchedFile(root: LibraryRoot, path: string): Promise<void> {
    const verdict = await checkFile(path, await realRoots(this.rootPaths()));
    const skipped = this.skipped.get(root.id) ?? new Map<string, string>();
    if (!verdict.inside) {
      if (!this.roots.has(root.id)) return;
      this.onGone(path);
      if (verdict.reason !== 'it no longer exists') skipped.set(path, verdict.reason);
      this.skipped.set(root.id, skipped);
      this.scheduleChanged();
      return;
    }
    if (skipped.delete(path)) this.scheduleChanged();
    const info = await stat(path);
    await this.noteFile(root, path, info.size, Math.trunc(info.mtimeMs));
  }

  /** Adds or refreshes one file; unchanged size and mtime mean nothing changed. */
  private async noteFile(root: LibraryRoot, path: string, bytes: number, modifiedMs: number): Promise<void> {
    const kind = documentKindOf(path);
    if (!kind) return;
    const id = idForPath('doc', path);
    const known = this.documents.get(id);
    if (known && known.bytes === bytes && known.modifiedMs === modifiedMs) return;
    const count = this.countPages ? await this.countPages(path, kind) : NOT_COUNTED;
    if (this.closed || !this.roots.has(root.id)) return;
    const doc = foundDocument(root, { id, path, kind, bytes, modifiedMs }, count);
    this.documents.set(id, doc);
    if (!this.readOnly) this.found.add(listedRow(doc));
    this.events.emit('documentUpdated', doc);
    this.scheduleChanged();
  }

  private removeDocument(doc: StoredDocument): void {
    this.documents.delete(doc.id);
    this.events.emit('documentRemoved', doc);
    this.scheduleChanged();
  }

  private watchRoot(root: LibraryRoot): void {
    const watcher = watchFolder(root.path);
    const onFile = (path: string) => {
      this.track(this.noteWatchedFile(root, path).catch(() => this.onGone(path)));
    };
    watcher.on('add', onFile);
    watcher.on('change', onFile);
    watcher.on('unlink', (path) => {
      if (this.skipped.get(root.id)?.delete(path)) this.scheduleChanged();
      this.onGone(path);
    });
    watcher.on('unlinkDir', (dir) => {
      if (dir === root.path) this.track(this.scanRoot(root));
      for (const doc of [...this.documents.values()]) {
        if (doc.rootId === root.id && isInside(doc.path, dir)) this.removeDocument(doc);
      }
    });
    watcher.on('error', (error) => console.error(`quire: watching ${root.path} failed`, error));
    this.watchers.set(root.id, watcher);
  }

  private onGone(path: string): void {
    const doc = this.documents.get(idForPath('doc', path));
    if (doc) this.removeDocument(doc);
  }

  private setRootError(rootId: string, error: string | null): void {
    const root = this.roots.get(rootId);
    if (root && root.error !== error) this.roots.set(rootId, { ...root, error });
  }

  private scheduleChanged(): void {
    if (this.closed || this.changeTimer) return;
    this.changeTimer = setTimeout(() => {
      this.changeTimer = undefined;
      this.events.emit('changed', this.snapshot());
    }, this.options.changeDelayMs ?? 150);
  }

  private requireRows(): DocumentRows {
    if (!this.rows) throw new QuireError('internal', 'The library is not open yet.');
    return this.rows;
  }

  private refuseWhenReading(): void {
    const why = 'This library is shared read-only: its folders change on the machine that indexes it.';
    if (this.readOnly) throw new QuireError('unsupported', why);
  }

  private async save(): Promise<void> {
    try {
      await this.store.save([...this.roots.values()]);
    } catch (error) {
      console.error('quire: could not save the library', error);
    }
  }
}
