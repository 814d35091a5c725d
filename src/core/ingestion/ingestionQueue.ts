import { basename } from 'node:path';
import type { IndexProgress } from '../../shared/domain/library';
import { QuireError, isAbortError, toErrorInfo } from '../../shared/errors';
import { Emitter } from '../common/emitter';
import type { DocumentPool } from '../documents/pool/documentPool';
import type { PageImageStore } from '../documents/render/pageImageStore';
import type { PageImageRef } from '../documents/types';
import type { Index } from '../index/openIndex';
import type { IndexedDocument } from '../index/records';
import type { LibraryService } from '../library/libraryService';
import type { StoredDocument } from '../library/libraryStore';
import { drawPageImages } from './drawPageImages';
import { hashFile } from './fileHash';
import type { PasswordVault } from './passwordVault';
import { ProgressMeter } from './progressMeter';

export interface IngestionOptions {
  library: LibraryService;
  index: Index;
  pool: DocumentPool;
  images: PageImageStore;
  passwords: PasswordVault;
  /** Render page images (WebP + thumbnail) as well as reading text; drawn after every queued file's text. */
  renderImages?: boolean;
  /** Long edge of stored page images, in pixels. */
  imageLongEdge?: number;
  /** Files read at once; the pool's size by default. */
  concurrency?: number;
  /** Attempts before a file that keeps failing is quarantined. */
  maxAttempts?: number;
  /** First retry delay; doubles with each attempt. */
  retryDelayMs?: number;
  /** Called after files were indexed, e.g. to embed new content in the background. */
  onIndexed?: () => void;
  /** Wait after the queue empties before compacting the index and folding new rows into it. */
  maintenanceDelayMs?: number;
}

export interface IngestionEvents extends Record<string, unknown> {
  progress: IndexProgress;
  /** Fired when the queue empties. */
  idle: null;
}

interface Job {
  documentId: string;
  attempt: number;
  estimatedPages: number;
  waiter?: { resolve: () => void; reject: (error: unknown) => void };
}

/** Page images to draw for content whose text is indexed. */
interface DrawingJob {
  contentHash: string;
  pages: number;
}

const PROGRESS_INTERVAL_MS = 250;
const REMOVAL_GRACE_MS = 1000;

/**
 * Carries files from the library into the index: hash, read (in the worker pool), store, then commit
 * the documents row, which makes the text searchable. Page images are drawn afterwards, once no file
 * waits for its text, and attached to the pages. Unchanged content is never read twice; a renamed
 * file only moves its row. Every file ends in one visible state: indexed, needsPassword, failed or
 * quarantined.
 */
export class IngestionQueue {
  readonly events = new Emitter<IngestionEvents>();
  private readonly urgent: Job[] = [];
  private readonly normal: Job[] = [];
  private readonly queued = new Map<string, Job>();
  private readonly running = new Map<string, AbortController>();
  /** Page images waiting to be drawn, and being drawn, by content hash. */
  private readonly drawingQueue = new Map<string, DrawingJob>();
  private readonly drawing = new Map<string, AbortController>();
  /** Finding content left without images by an earlier run. */
  private startup: Promise<void> = Promise.resolve();
  private readonly meter = new ProgressMeter();
  private readonly retryTimers = new Set<NodeJS.Timeout>();
  private readonly concurrency: number;
  private paused = false;
  private closed = false;
  private lastProgressAt = 0;
  private progressTimer: NodeJS.Timeout | undefined;
  private maintenanceTimer: NodeJS.Timeout | undefined;
  private removalTimer: NodeJS.Timeout | undefined;
  private readonly pendingRemovals = new Set<string>();
  private maintenance: Promise<void> = Promise.resolve();
  private indexedSinceMaintenance = false;
  private currentPath: string | null = null;
  private readonly unsubscribe: Array<() => void> = [];
  /** Roots added in this session go first: the user is waiting for them. */
  private readonly newRoots = new Set<string>();

  constructor(private readonly options: IngestionOptions) {
    this.concurrency = Math.max(1, options.concurrency ?? options.pool.size);
  }

  /** Reconciles the library with the index after a start (or a crash) and follows library changes. */
  start(): void {
    const { library, index } = this.options;
    this.unsubscribe.push(
      library.events.on('rootAdded', (root) => this.newRoots.add(root.id)),
      library.events.on('documentUpdated', (doc) => this.enqueue(doc, this.newRoots.has(doc.rootId))),
      library.events.on('documentRemoved', (doc) => void this.forget(doc)),
    );
    const known = new Set<string>();
    for (const doc of library.allDocuments()) {
      known.add(doc.id);
      const indexed = index.documents.get(doc.id);
      if (indexed && isCurrent(indexed, doc)) {
        if (indexed.state !== doc.state || doc.contentHash !== indexed.contentHash) {
          library.updateDocument(doc.id, {
            state: indexed.state,
            error: indexed.error,
            pages: indexed.pages ?? doc.pages,
            contentHash: indexed.contentHash,
          });
        }
        continue;
      }
      this.enqueue(doc, false);
    }
    // Files deleted while Quire was not running.
    for (const indexed of index.documents.list()) {
      if (!known.has(indexed.id)) void this.dropFromIndex(indexed.id);
    }
    this.startup = this.queueMissingImages();
  }

  /** Page images an earlier run did not finish (it stopped, or crashed, after the text). */
  private async queueMissingImages(): Promise<void> {
    if (this.options.renderImages === false) return;
    try {
      for (const hash of await this.options.index.content.contentMissingImages()) {
        const owner = this.imageOwner(hash);
        if (owner) this.queueDrawing(hash, owner.pages ?? 0);
      }
    } catch (error) {
      console.error('quire: could not look for pages without images', error);
    }
    this.pump();
  }

  enqueue(doc: StoredDocument, urgent: boolean, waiter?: Job['waiter']): void {
    if (this.closed) {
      waiter?.reject(new QuireError('cancelled', 'Quire is closing.'));
      return;
    }
    this.running.get(doc.id)?.abort();
    const existing = this.queued.get(doc.id);
    if (existing) {
      if (urgent) this.promote(existing);
      if (waiter) existing.waiter = waiter;
      return;
    }
    const job: Job = {
      documentId: doc.id,
      attempt: 0,
      estimatedPages: doc.pages ?? 1,
      ...(waiter ? { waiter } : {}),
    };
    this.queued.set(doc.id, job);
    (urgent ? this.urgent : this.normal).push(job);
    this.meter.added(job.estimatedPages);
    this.options.library.updateDocument(doc.id, { state: 'queued', error: null });
    this.emitProgress();
    this.pump();
  }

  /** Moves a document to the front (the user opened it). */
  prioritize(documentId: string): void {
    const job = this.queued.get(documentId);
    if (job) this.promote(job);
  }

  /**
   * Draws one page of an indexed PDF now, ahead of its document's turn (the user opened it), and
   * attaches the image. Null when the file is not an indexed PDF or images are off.
   */
  async drawPageNow(documentId: string, page: number): Promise<PageImageRef | null> {
    const { index, pool, images, passwords } = this.options;
    const doc = index.documents.get(documentId);
    if (this.options.renderImages === false || !doc?.contentHash || doc.kind !== 'pdf') return null;
    if (doc.state !== 'indexed') return null;
    const password = await passwords.get(doc.id);
    const [image] = await pool.render(
      doc.path,
      {
        contentHash: doc.contentHash,
        pages: [page],
        longEdge: this.options.imageLongEdge ?? 1600,
        ...(password ? { password } : {}),
      },
      images,
    );
    if (!image || this.imageOwner(doc.contentHash)?.contentHash !== doc.contentHash) return null;
    await index.content.setPageImages(doc.contentHash, [image]);
    return image;
  }

  /** Retries an encrypted document with a password; resolves when it is indexed. */
  async unlock(documentId: string, password: string, remember: boolean): Promise<StoredDocument> {
    const doc = this.options.library.document(documentId);
    if (!doc) throw new QuireError('not_found', 'That document is not in the library.');
    if (doc.kind !== 'pdf') throw new QuireError('invalid_input', 'Only PDFs have passwords.');
    await this.options.passwords.put(doc.id, password, false);
    const done = new Promise<void>((resolve, reject) => this.enqueue(doc, true, { resolve, reject }));
    try {
      await done;
    } catch (error) {
      await this.options.passwords.forget(doc.id);
      throw error;
    }
    if (remember) await this.options.passwords.put(doc.id, password, true);
    return this.options.library.document(doc.id) ?? doc;
  }

  pause(): IndexProgress {
    this.paused = true;
    this.meter.pause();
    this.emitProgress(true);
    return this.progress();
  }

  resume(): IndexProgress {
    this.paused = false;
    this.meter.resume();
    this.emitProgress(true);
    this.pump();
    return this.progress();
  }

  /**
   * Stops indexing what is queued or running now. Those files go back to `listed`; a change to one of
   * them, or the next start, queues it again.
   */
  cancel(): IndexProgress {
    const dropped = [...this.queued.values()];
    this.queued.clear();
    this.urgent.length = 0;
    this.normal.length = 0;
    for (const job of dropped) {
      this.meter.dropped(job.estimatedPages);
      this.options.library.updateDocument(job.documentId, { state: 'listed', error: null });
      job.waiter?.reject(new QuireError('cancelled', 'Indexing was cancelled.'));
    }
    for (const controller of this.running.values()) controller.abort();
    for (const job of this.drawingQueue.values()) {
      this.meter.drawingFinished(job.pages);
      this.options.index.content.pageImagesSettled(job.contentHash);
    }
    this.drawingQueue.clear();
    for (const controller of this.drawing.values()) controller.abort();
    this.paused = false;
    this.emitProgress(true);
    return this.progress();
  }

  progress(): IndexProgress {
    return this.meter.snapshot(this.paused, this.currentPath);
  }

  /** Resolves when nothing is queued or running and the index has been tidied after the last batch. */
  async whenIdle(): Promise<void> {
    await this.startup;
    if (!this.isIdle()) {
      await new Promise<void>((resolve) => {
        const off = this.events.on('idle', () => {
          off();
          resolve();
        });
      });
    }
    await (this.indexedSinceMaintenance ? this.runMaintenance() : this.maintenance);
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const off of this.unsubscribe) off();
    for (const timer of this.retryTimers) clearTimeout(timer);
    clearTimeout(this.maintenanceTimer);
    clearTimeout(this.removalTimer);
    await this.maintenance;
    await this.startup;
    for (const controller of [...this.running.values(), ...this.drawing.values()]) controller.abort();
    clearTimeout(this.progressTimer);
    while (this.running.size > 0 || this.drawing.size > 0) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    this.events.clear();
  }

  private isIdle(): boolean {
    return (
      this.queued.size === 0 &&
      this.running.size === 0 &&
      this.retryTimers.size === 0 &&
      this.drawingQueue.size === 0 &&
      this.drawing.size === 0
    );
  }

  private promote(job: Job): void {
    const at = this.normal.indexOf(job);
    if (at >= 0) {
      this.normal.splice(at, 1);
      this.urgent.unshift(job);
    }
  }

  private pump(): void {
    while (!this.paused && !this.closed && this.running.size + this.drawing.size < this.concurrency) {
      const job = this.urgent.shift() ?? this.normal.shift();
      if (job) {
        this.queued.delete(job.documentId);
        void this.runJob(job);
        continue;
      }
      // Images only once no file waits for its text (a retry waiting on its timer does not count).
      const drawing = this.drawingQueue.values().next();
      if (drawing.done) break;
      this.drawingQueue.delete(drawing.value.contentHash);
      void this.runDrawing(drawing.value);
    }
    if (this.isIdle()) {
      this.currentPath = null;
      this.meter.pause();
      this.emitProgress(true);
      if (this.indexedSinceMaintenance) this.scheduleMaintenance(this.options.maintenanceDelayMs ?? 2000);
      this.events.emit('idle', null);
    }
  }

  private async runJob(job: Job): Promise<void> {
    const controller = new AbortController();
    this.running.set(job.documentId, controller);
    let pages = 0;
    let outcome: 'done' | 'retry' | 'cancelled' = 'done';
    try {
      pages = await this.ingest(job.documentId, controller.signal);
      job.waiter?.resolve();
    } catch (error) {
      outcome = await this.onFailure(job, error, controller.signal);
      if (outcome !== 'retry') job.waiter?.reject(error);
    } finally {
      this.running.delete(job.documentId);
    }
    if (outcome === 'done') this.meter.finished(job.estimatedPages, pages);
    else if (outcome === 'cancelled') this.meter.dropped(job.estimatedPages);
    this.emitProgress();
    this.pump();
  }

  /** Returns the number of pages now searchable. */
  private async ingest(documentId: string, signal: AbortSignal): Promise<number> {
    const { library, index, pool } = this.options;
    const doc = library.document(documentId);
    if (!doc) return 0;
    this.currentPath = doc.path;
    library.updateDocument(doc.id, { state: 'indexing', error: null });
    const contentHash = await hashFile(doc.path, signal);
    signal.throwIfAborted();
    const record: IndexedDocument = {
      id: doc.id,
      path: doc.path,
      rootId: doc.rootId,
      contentHash,
      kind: doc.kind,
      title: null,
      pages: doc.pages,
      bytes: doc.bytes,
      modifiedMs: doc.modifiedMs,
      state: 'indexed',
      error: null,
      indexedAt: Date.now(),
    };
    const sameContent = index.documents.indexedWithContent(contentHash);
    const reused = sameContent !== null && (await index.content.has(contentHash));
    if (sameContent && reused) {
      // Moved, renamed or copied: the content is already indexed.
      record.pages = sameContent.pages;
      record.title = sameContent.title;
      // The same content lacks the same page images, if any could not be drawn.
      record.error = sameContent.error;
    } else {
      const password = await this.options.passwords.get(doc.id);
      const parsed = await pool.parse(doc.path, {
        kind: doc.kind,
        signal,
        ...(password ? { password } : {}),
      });
      signal.throwIfAborted();
      await index.content.put(contentHash, parsed, [], { fileName: basename(doc.path) });
      record.pages = parsed.pages.length;
      record.title = parsed.title;
    }
    signal.throwIfAborted();
    await index.documents.upsert(record);
    library.updateDocument(doc.id, {
      state: 'indexed',
      error: record.error,
      pages: record.pages,
      contentHash,
    });
    // Content just read has no images yet; reused content may have them already.
    if (
      this.options.renderImages !== false &&
      doc.kind === 'pdf' &&
      (reused ? await index.content.pagesWithoutImages(contentHash) : (record.pages ?? 0)) > 0
    ) {
      this.queueDrawing(contentHash, record.pages ?? 0);
    }
    this.indexedSinceMaintenance = true;
    this.options.onIndexed?.();
    return record.pages ?? 0;
  }

  private queueDrawing(contentHash: string, pages: number): void {
    if (this.drawingQueue.has(contentHash) || this.drawing.has(contentHash)) return;
    this.drawingQueue.set(contentHash, { contentHash, pages });
    this.options.index.content.expectPageImages(contentHash);
    this.meter.drawingAdded(pages);
  }

  /** An indexed PDF with this content, whose path and password the images are drawn from. */
  private imageOwner(contentHash: string): IndexedDocument | null {
    const owner = this.options.index.documents.indexedWithContent(contentHash);
    return owner?.kind === 'pdf' ? owner : null;
  }

  private async runDrawing(job: DrawingJob): Promise<void> {
    const { index, images, pool, passwords } = this.options;
    const controller = new AbortController();
    this.drawing.set(job.contentHash, controller);
    try {
      const owner = this.imageOwner(job.contentHash);
      if (!owner) return;
      this.currentPath = owner.path;
      const password = await passwords.get(owner.id);
      const drawn = await drawPageImages(pool, images, {
        path: owner.path,
        contentHash: job.contentHash,
        pageCount: owner.pages ?? 0,
        longEdge: this.options.imageLongEdge ?? 1600,
        signal: controller.signal,
        ...(password ? { password } : {}),
      });
      // The file may have changed or gone while its pages were drawn.
      if (!this.imageOwner(job.contentHash)) {
        await this.removeImages([job.contentHash]);
        return;
      }
      await index.content.setPageImages(job.contentHash, drawn.images);
      await this.noteDrawingProblem(job.contentHash, drawn.problem);
      this.options.onIndexed?.();
    } catch (error) {
      if (isAbortError(error) || controller.signal.aborted) return;
      await this.noteDrawingProblem(
        job.contentHash,
        `Page images could not be drawn: ${toErrorInfo(error).message}`,
      );
    } finally {
      this.drawing.delete(job.contentHash);
      if (!this.drawingQueue.has(job.contentHash))
        this.options.index.content.pageImagesSettled(job.contentHash);
      this.meter.drawingFinished(job.pages);
      this.emitProgress();
      this.pump();
    }
  }

  /** Shows why page images are missing on every indexed file with this content (or clears it). */
  private async noteDrawingProblem(contentHash: string, problem: string | null): Promise<void> {
    const { index, library } = this.options;
    try {
      for (const doc of index.documents.list()) {
        if (doc.contentHash !== contentHash || doc.state !== 'indexed' || doc.error === problem) continue;
        await index.documents.setState(doc.id, 'indexed', problem);
        library.updateDocument(doc.id, { error: problem });
      }
    } catch (error) {
      // The index is closing or unwritable; the images are looked for again at the next start.
      console.error('quire: could not record why page images are missing', error);
    }
  }

  private async onFailure(
    job: Job,
    error: unknown,
    signal: AbortSignal,
  ): Promise<'done' | 'retry' | 'cancelled'> {
    const { library } = this.options;
    const doc = library.document(job.documentId);
    if (!doc) return 'cancelled';
    if (isAbortError(error) || signal.aborted) {
      // Superseded by a newer version of the file, or the queue is closing; either way it is not an error.
      if (!this.queued.has(doc.id) && !this.closed) library.updateDocument(doc.id, { state: 'listed' });
      return 'cancelled';
    }
    const info = toErrorInfo(error);
    // A file deleted while it was read: the watcher removes it from the library.
    if (info.code === 'not_found' || (error as NodeJS.ErrnoException).code === 'ENOENT') return 'cancelled';
    if (info.code === 'needs_password' || info.code === 'wrong_password') {
      await this.record(doc, 'needsPassword', info.message);
      return 'done';
    }
    if (info.code === 'unsupported' || info.code === 'invalid_input' || info.code === 'not_readable') {
      await this.record(doc, 'failed', info.message);
      return 'done';
    }
    job.attempt++;
    const maxAttempts = this.options.maxAttempts ?? 3;
    if (job.attempt >= maxAttempts) {
      await this.record(doc, 'quarantined', `Stopped after ${job.attempt} attempts: ${info.message}`);
      return 'done';
    }
    library.updateDocument(doc.id, { state: 'queued', error: `Retrying: ${info.message}` });
    const delay = (this.options.retryDelayMs ?? 1000) * 2 ** (job.attempt - 1);
    const timer = setTimeout(() => {
      this.retryTimers.delete(timer);
      if (this.closed || !library.document(doc.id)) return this.pump();
      this.queued.set(doc.id, job);
      this.normal.push(job);
      this.pump();
    }, delay);
    this.retryTimers.add(timer);
    return 'retry';
  }

  /** Records an end state in the index too, so a restart does not retry an unchanged file. */
  private async record(
    doc: StoredDocument,
    state: 'needsPassword' | 'failed' | 'quarantined',
    error: string,
  ) {
    this.options.library.updateDocument(doc.id, { state, error });
    await this.options.index.documents
      .upsert({
        id: doc.id,
        path: doc.path,
        rootId: doc.rootId,
        contentHash: null,
        kind: doc.kind,
        title: null,
        pages: doc.pages,
        bytes: doc.bytes,
        modifiedMs: doc.modifiedMs,
        state,
        error,
        indexedAt: null,
      })
      .catch((writeError: unknown) => console.error('quire: could not record a failed file', writeError));
  }

  private async forget(doc: StoredDocument): Promise<void> {
    const job = this.queued.get(doc.id);
    if (job) {
      this.queued.delete(doc.id);
      for (const list of [this.urgent, this.normal]) {
        const at = list.indexOf(job);
        if (at >= 0) list.splice(at, 1);
      }
      this.meter.dropped(job.estimatedPages);
    }
    this.running.get(doc.id)?.abort();
    this.pendingRemovals.add(doc.id);
    this.scheduleRemovals();
    this.emitProgress();
    this.pump();
  }

  /**
   * A rename arrives as a removal and an addition. Removing the old row at once would drop content the
   * new name is about to reuse, so removals wait until the queue has settled (the new name is then
   * indexed against the same content) and only then leave the index.
   */
  private scheduleRemovals(): void {
    clearTimeout(this.removalTimer);
    this.removalTimer = setTimeout(() => {
      this.removalTimer = undefined;
      if (this.closed) return;
      if (this.queued.size > 0 || this.running.size > 0) return this.scheduleRemovals();
      const ids = [...this.pendingRemovals];
      this.pendingRemovals.clear();
      for (const id of ids) if (!this.options.library.document(id)) void this.dropFromIndex(id);
    }, REMOVAL_GRACE_MS);
  }

  private async dropFromIndex(documentId: string): Promise<void> {
    try {
      await this.options.index.documents.remove(documentId);
      await this.options.passwords.forget(documentId);
    } catch (error) {
      console.error('quire: could not remove a document from the index', error);
    }
  }

  private async removeImages(contentHashes: string[]): Promise<void> {
    for (const hash of contentHashes) await this.options.images.remove(hash).catch(() => undefined);
  }

  /**
   * After a batch: compacts the tables, folds new chunks into the full-text index (new rows are not
   * all found until then) and drops old versions, so the disk does not grow with every write.
   */
  private scheduleMaintenance(delayMs: number): void {
    clearTimeout(this.maintenanceTimer);
    this.maintenanceTimer = setTimeout(() => {
      this.maintenanceTimer = undefined;
      if (!this.closed && this.isIdle()) void this.runMaintenance();
    }, delayMs);
  }

  private runMaintenance(): Promise<void> {
    clearTimeout(this.maintenanceTimer);
    this.indexedSinceMaintenance = false;
    this.maintenance = this.maintenance
      .then(() => this.options.index.maintenance.optimize())
      .then(() => undefined)
      .catch((error: unknown) => console.error('quire: tidying the index failed', error));
    return this.maintenance;
  }

  private emitProgress(force = false): void {
    if (this.closed) return;
    const now = Date.now();
    if (force || now - this.lastProgressAt >= PROGRESS_INTERVAL_MS) {
      this.lastProgressAt = now;
      clearTimeout(this.progressTimer);
      this.progressTimer = undefined;
      this.events.emit('progress', this.progress());
    } else {
      this.progressTimer ??= setTimeout(() => {
        this.progressTimer = undefined;
        this.emitProgress(true);
      }, PROGRESS_INTERVAL_MS);
    }
  }
}

/** The index row still describes the file on disk (same size and time), whatever its state. */
function isCurrent(indexed: IndexedDocument, doc: StoredDocument): boolean {
  return indexed.path === doc.path && indexed.bytes === doc.bytes && indexed.modifiedMs === doc.modifiedMs;
}
