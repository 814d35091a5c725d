import type { IndexProgress } from '../../shared/domain/library';
import { QuireError } from '../../shared/errors';
import { diskFullError, freeBytes, isDiskFull } from '../common/diskSpace';
import { Emitter } from '../common/emitter';
import { drawsPages, laysOutPages } from '../documents/readers/formatReaders';
import type { DrawablePage } from '../documents/render/laidOutRaster';
import type { DocumentPool } from '../documents/pool/documentPool';
import type { PageImageStore } from '../documents/render/pageImageStore';
import type { PageImageRef } from '../documents/types';
import type { Index } from '../index/openIndex';
import type { IndexedDocument } from '../index/records';
import type { LibraryService } from '../library/libraryService';
import type { StoredDocument } from '../library/libraryStore';
import { classifyFailure, FileIngestion } from './fileIngestion';
import { ImageBackfill } from './imageBackfill';
import { IndexTidying } from './indexTidying';
import { ocrSourceOf, PageRecognition, type OcrSetup } from './pageRecognition';
import type { PasswordVault } from './passwordVault';
import { unlockDocument } from './unlockDocument';
import { expectedPages, ProgressMeter } from './progressMeter';
import { ProgressPacer } from './progressPacer';
import { Reconciliation } from './reconciliation';
import { fileKey, type FileJob, type FilePriority, type Waiter } from './fileJob';
import { Scheduler } from './scheduler';

/**
 * Files in flight per worker: a file holds its slot until committed, so many in flight make few,
 * large commits (DESIGN.md: 3 → 12 took 5,000 files from 183 s to 82 s). A read file holds its
 * text until then, so never more than MOST_FILES_IN_FLIGHT whatever the cores.
 */
const FILES_PER_WORKER = 12;
const MOST_FILES_IN_FLIGHT = 32;

export interface IngestionOptions {
  library: LibraryService;
  index: Pick<Index, 'documents' | 'content' | 'recognized' | 'maintenance'>;
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
  /** Wait after the queue empties before compacting the index and folding new rows into it. */
  maintenanceDelayMs?: number;
  /** OCR of scanned pages (its results, its settings, an optional vision transcriber); off when absent. */
  ocr?: OcrSetup;
  /** Which indexed documents this library's folders hold (a shared library's writer owns only its own). */
  ownsDocument?: (doc: IndexedDocument) => boolean;
  /** Where the index writes on this machine: its free space is checked when the disk fills up. */
  dataDir?: string;
  /** How often a stop for a full disk looks whether space was freed, in ms. */
  spaceCheckMs?: number;
}

export interface IngestionEvents extends Record<string, unknown> {
  progress: IndexProgress;
  /** Fired when the queue empties. */
  idle: null;
  /** Indexing stopped on its own (the disk is full); it goes on by itself once there is room. */
  stopped: QuireError;
}

/** Free space that lets indexing go on after a full disk stopped it (or what the rest needs, if less). */
const ROOM_TO_GO_ON = 64 * 1024 * 1024;

/**
 * Carries files from the library into the index. Four parts: the scheduler (queue, priorities, pause
 * and resume), the one-file pipeline (read, chunk, index), image backfill (pages drawn after every
 * file's text) and reconciliation (the library against the index, at start and as it changes). This
 * class wires them and reports progress. Every file ends in one visible state: indexed,
 * needsPassword, failed or quarantined.
 */
export class Ingestion {
  readonly events = new Emitter<IngestionEvents>();
  private readonly scheduler: Scheduler;
  private readonly pipeline: FileIngestion;
  private readonly backfill: ImageBackfill;
  private readonly recognition: PageRecognition | null;
  private readonly reconciliation: Reconciliation;
  private readonly meter = new ProgressMeter();
  /** Files queued, being read or waiting for a retry, by document id. */
  private readonly files = new Map<string, FileJob>();
  private startup: Promise<void> = Promise.resolve();
  private disposed = false;
  private readonly pacer = new ProgressPacer(() => this.events.emit('progress', this.progress()));
  private readonly tidying: IndexTidying;
  /** Why indexing stopped on its own (a full disk), until there is room again or the user resumes. */
  private stoppedBy: QuireError | null = null;
  private spaceCheck: NodeJS.Timeout | undefined;

  constructor(private readonly options: IngestionOptions) {
    const { library, index, pool, images, passwords } = options;
    const password = (id: string) => passwords.get(id);
    const readablePath = (path: string) => library.readablePath(path);
    // Files in flight as above; background work keeps to the workers.
    this.scheduler = new Scheduler(
      Math.max(1, options.concurrency ?? Math.min(pool.size * FILES_PER_WORKER, MOST_FILES_IN_FLIGHT)),
      Math.max(1, pool.size),
    );
    this.scheduler.events.on('idle', () => this.onIdle());
    this.tidying = new IndexTidying(index.maintenance, options.maintenanceDelayMs ?? 2000, () =>
      this.scheduler.isIdle(),
    );
    const ocr = options.ocr;
    this.pipeline = new FileIngestion({
      documents: index.documents,
      content: index.content,
      recognized: index.recognized,
      reader: pool,
      password,
      ocr: (contentHash) => (ocr ? ocrSourceOf(ocr, contentHash) : null),
      readablePath,
      pageLimit: pool.maxPagesPerDocument,
    });
    this.recognition = ocr
      ? new PageRecognition({
          ...ocr,
          documents: index.documents,
          recognized: index.recognized,
          pool,
          password,
          readablePath,
          scheduler: this.scheduler,
          meter: this.meter,
          working: (path) => this.meter.working('ocr', path),
          changed: () => this.emitProgress(),
          onSummary: (id, summary, language) => library.updateDocument(id, { ocr: summary, language }),
          onTextChanged: () => this.tidying.noteWrite(),
        })
      : null;
    this.backfill = new ImageBackfill({
      documents: index.documents,
      content: index.content,
      pool,
      images,
      password,
      readablePath,
      scheduler: this.scheduler,
      longEdge: options.imageLongEdge ?? 1600,
      progress: {
        drawingAdded: (pages) => this.meter.drawingAdded(pages),
        drawingFinished: (pages) => this.meter.drawingFinished(pages),
        working: (path) => this.meter.working('images', path),
        changed: () => this.emitProgress(),
      },
      onProblem: (documentId, problem) => library.updateDocument(documentId, { error: problem }),
    });
    this.reconciliation = new Reconciliation({
      library,
      documents: index.documents,
      passwords,
      enqueue: (doc, urgent) => this.enqueue(doc, urgent ? 'urgent' : 'normal'),
      dequeue: (documentId) => this.dequeue(documentId),
      filesPending: () => this.files.size > 0,
      pageLimit: pool.maxPagesPerDocument,
      ...(options.ownsDocument ? { owns: options.ownsDocument } : {}),
    });
  }

  /** Reconciles the library with the index after a start (or a crash) and follows library changes. */
  start(): void {
    this.reconciliation.start();
    const summaries = this.recognition?.publishSummaries() ?? Promise.resolve();
    const recognition = summaries.then(() => this.recognition?.queueMissing());
    const images = this.options.renderImages !== false ? this.backfill.queueMissing() : Promise.resolve();
    this.startup = Promise.all([recognition, images]).then(() => undefined);
  }

  /** OCR settings changed: pages not yet read with the new ones are queued (or nothing, when off). */
  ocrSettingsChanged(): void {
    const recognition = this.recognition;
    // Counted as start-up work, so whenIdle() waits for the pages it queues.
    if (recognition) this.startup = this.startup.then(() => recognition.queueMissing());
  }

  enqueue(doc: StoredDocument, priority: FilePriority, waiter?: Waiter): void {
    if (this.disposed) {
      waiter?.reject(new QuireError('cancelled', 'Quire is closing.'));
      return;
    }
    // A newer version of a file being read: stop reading the old one.
    this.scheduler.abort(fileKey(doc.id));
    const existing = this.files.get(doc.id);
    if (existing && this.scheduler.queued(fileKey(doc.id))) {
      if (priority === 'asked') {
        this.scheduler.putFirst(fileKey(doc.id));
        existing.asked = true;
      } else if (priority === 'urgent') this.scheduler.promote(fileKey(doc.id));
      if (waiter) existing.waiter = waiter;
      return;
    }
    const job: FileJob = {
      documentId: doc.id,
      attempt: 0,
      estimatedPages: expectedPages(doc),
      asked: priority === 'asked',
      ...(waiter ? { waiter } : {}),
    };
    this.files.set(doc.id, job);
    this.meter.added(job.estimatedPages);
    this.options.library.updateDocument(doc.id, { state: 'queued', error: null });
    this.scheduler.add(this.fileTask(job), priority === 'normal' ? 'normal' : 'urgent');
    if (priority === 'asked') this.scheduler.putFirst(fileKey(doc.id));
    this.emitProgress();
  }

  /** Moves a document to the front (the user opened it). */
  prioritize(documentId: string): void {
    this.scheduler.promote(fileKey(documentId));
  }

  /** One page of an indexed document as Quire laid it out, for the text view. */
  async pageLayout(documentId: string, page: number, signal?: AbortSignal): Promise<DrawablePage> {
    const doc = this.options.index.documents.get(documentId);
    if (!doc || doc.state !== 'indexed' || !laysOutPages(doc.kind)) {
      throw new QuireError('not_found', 'That page has no text view.');
    }
    const path = await this.options.library.readablePath(doc.path);
    const job = { kind: doc.kind, page, urgent: true, ...(signal ? { signal } : {}) };
    return this.options.pool.pageText(path, job);
  }

  /** Draws one page now, ahead of its turn; null when the file is not an indexed PDF or images are off. */
  drawPageNow(documentId: string, page: number, signal?: AbortSignal): Promise<PageImageRef | null> {
    if (this.options.renderImages === false) return Promise.resolve(null);
    return this.backfill.drawPageNow(documentId, page, signal);
  }

  /** A password-protected PDF read again with the user's password (see unlockDocument). */
  unlock(documentId: string, password: string, remember: boolean): Promise<StoredDocument> {
    const { library, passwords } = this.options;
    const readFirst = (doc: StoredDocument) =>
      new Promise<void>((resolve, reject) => this.enqueue(doc, 'asked', { resolve, reject }));
    return unlockDocument(library, passwords, readFirst, { documentId, password, remember });
  }

  pause(): IndexProgress {
    this.scheduler.pause();
    this.meter.pause();
    this.emitProgress(true);
    return this.progress();
  }

  resume(): IndexProgress {
    this.clearStop();
    this.meter.resume();
    this.scheduler.resume();
    this.emitProgress(true);
    return this.progress();
  }

  /**
   * Stops indexing what is queued or running now. Those files go back to `listed`; a change to one of
   * them, or the next start, queues it again.
   */
  cancel(): IndexProgress {
    this.clearStop();
    this.scheduler.cancel();
    this.emitProgress(true);
    return this.progress();
  }

  progress(): IndexProgress {
    return { ...this.meter.snapshot(this.scheduler.isPaused), stopped: this.stoppedBy?.message ?? null };
  }

  /** Why indexing stopped on its own (the disk is full); null while it runs, or was paused by the user. */
  stopped(): QuireError | null {
    return this.stoppedBy;
  }

  /**
   * Resolves when nothing is queued or running and the index has been tidied after the last batch,
   * or when indexing stopped on its own (see `stopped()`) and the files under way have ended: then
   * files are still waiting.
   */
  async whenIdle(): Promise<void> {
    await this.startup;
    if (this.stoppedBy) return this.scheduler.whenNothingRuns();
    const stopped = new Promise<void>((resolve) => {
      const off = this.events.on('stopped', () => {
        off();
        resolve();
      });
      void this.scheduler.whenIdle().then(() => {
        off();
        resolve();
      });
    });
    await stopped;
    if (this.stoppedBy) await this.scheduler.whenNothingRuns();
    else await this.tidying.whenTidy();
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    clearInterval(this.spaceCheck);
    this.reconciliation.dispose();
    await this.tidying.stop();
    await this.startup;
    for (const job of this.files.values())
      job.waiter?.reject(new QuireError('cancelled', 'Quire is closing.'));
    await this.scheduler.dispose();
    this.pacer.dispose();
    this.events.clear();
  }

  private fileTask(job: FileJob) {
    return {
      key: fileKey(job.documentId),
      run: (signal: AbortSignal) => this.readFile(job, signal),
      dropped: () => {
        // Cancelled, or the file went away, before it was read.
        this.files.delete(job.documentId);
        this.meter.dropped(job.estimatedPages);
        if (this.options.library.document(job.documentId)) {
          this.options.library.updateDocument(job.documentId, { state: 'listed', error: null });
        }
        job.waiter?.reject(new QuireError('cancelled', 'Indexing was cancelled.'));
      },
    };
  }

  private async readFile(job: FileJob, signal: AbortSignal): Promise<void> {
    const { library } = this.options;
    const doc = library.document(job.documentId);
    let outcome: 'done' | 'retry' | 'cancelled' = 'cancelled';
    let pages = 0;
    if (!doc) job.waiter?.reject(new QuireError('not_found', 'That document is no longer in the library.'));
    else {
      this.meter.working('text', doc.path);
      library.updateDocument(doc.id, { state: 'indexing', error: null });
      try {
        const ingested = await this.pipeline.ingest(doc, signal, job.asked);
        pages = ingested.pages;
        library.updateDocument(doc.id, {
          state: 'indexed',
          error: this.options.index.documents.get(doc.id)?.error ?? null,
          pages,
          contentHash: ingested.contentHash,
          ocr: ingested.ocr,
          language: this.options.index.documents.get(doc.id)?.language ?? null,
        });
        // Scanned pages are read before their images are drawn: text is what search needs first.
        this.recognition?.queueAfterText(
          ingested.contentHash,
          ingested.pagesToCheck,
          ingested.pagesAwaitingOcr,
        );
        if (this.options.renderImages !== false && drawsPages(doc.kind) && ingested.pagesWithoutImages > 0) {
          this.backfill.queue(ingested.contentHash, pages);
        }
        this.tidying.noteWrite();
        outcome = 'done';
        job.waiter?.resolve();
      } catch (error) {
        outcome = await this.onFailure(job, doc, error, signal);
        if (outcome !== 'retry') job.waiter?.reject(error);
      }
    }
    // Done with this file: its name must not linger in the progress.
    if (doc) this.meter.finishedWith('text', doc.path);
    if (outcome !== 'retry' && this.files.get(job.documentId) === job) this.files.delete(job.documentId);
    if (outcome === 'done') this.meter.finished(job.estimatedPages, pages);
    else if (outcome === 'cancelled') this.meter.dropped(job.estimatedPages);
    this.emitProgress();
  }

  private async onFailure(
    job: FileJob,
    doc: StoredDocument,
    error: unknown,
    signal: AbortSignal,
  ): Promise<'done' | 'retry' | 'cancelled'> {
    const { library } = this.options;
    // Gone from the library while it was read: nothing to record.
    if (!library.document(doc.id)) return 'cancelled';
    if (isDiskFull(error) && !signal.aborted) {
      // Not the file's fault: every file after it would fail the same way. The file waits in the
      // queue, which stops until there is room; what is written stays readable.
      await this.stopForFullDisk();
      library.updateDocument(doc.id, { state: 'queued', error: 'Waiting for room: the disk is full.' });
      this.scheduler.retryLater(this.fileTask(job), 'normal', 0, () => {
        const wanted = library.document(doc.id) !== undefined;
        if (!wanted) this.files.delete(doc.id);
        return wanted;
      });
      return 'retry';
    }
    const failure = classifyFailure(error, signal);
    if (failure.kind === 'cancelled') {
      if (!this.scheduler.queued(fileKey(doc.id)) && !this.disposed) {
        library.updateDocument(doc.id, { state: 'listed' });
      }
      return 'cancelled';
    }
    if (failure.kind === 'final') {
      library.updateDocument(doc.id, { state: failure.state, error: failure.message });
      await this.pipeline.recordFailure(doc, failure.state, failure.message);
      return 'done';
    }
    job.attempt++;
    if (job.attempt >= (this.options.maxAttempts ?? 3)) {
      const message = `Stopped after ${job.attempt} attempts: ${failure.message}`;
      library.updateDocument(doc.id, { state: 'quarantined', error: message });
      await this.pipeline.recordFailure(doc, 'quarantined', message);
      return 'done';
    }
    library.updateDocument(doc.id, { state: 'queued', error: `Retrying: ${failure.message}` });
    const delay = (this.options.retryDelayMs ?? 1000) * 2 ** (job.attempt - 1);
    this.scheduler.retryLater(this.fileTask(job), 'normal', delay, () => {
      const wanted = library.document(doc.id) !== undefined;
      if (!wanted) this.files.delete(doc.id);
      return wanted;
    });
    return 'retry';
  }

  private async stopForFullDisk(): Promise<QuireError> {
    this.scheduler.pause();
    this.meter.pause();
    if (this.stoppedBy) return this.stoppedBy;
    const needed = this.bytesLeft();
    const dir = this.options.dataDir;
    const left = `Indexing stopped with ${this.files.size} ${this.files.size === 1 ? 'file' : 'files'} to go; what is indexed stays searchable. Free some space to go on.`;
    const stop = dir
      ? await diskFullError(dir, needed, left)
      : new QuireError('disk_full', `The disk is full. ${left}`);
    // Another file may have stopped it while the free space was measured.
    if (this.stoppedBy) return this.stoppedBy;
    this.stoppedBy = stop;
    if (dir) this.watchForRoom(dir, Math.min(needed, ROOM_TO_GO_ON));
    this.emitProgress(true);
    this.events.emit('stopped', stop);
    return stop;
  }

  /** Goes on by itself once the user freed some space. */
  private watchForRoom(dir: string, room: number): void {
    clearInterval(this.spaceCheck);
    this.spaceCheck = setInterval(() => {
      void freeBytes(dir).then((free) => {
        if (free !== null && free >= room && this.stoppedBy && !this.disposed) this.resume();
      });
    }, this.options.spaceCheckMs ?? 5000);
    this.spaceCheck.unref();
  }

  private clearStop(): void {
    clearInterval(this.spaceCheck);
    this.spaceCheck = undefined;
    this.stoppedBy = null;
  }

  /** Roughly what indexing the files still queued writes: at most their size, for text files. */
  private bytesLeft(): number {
    let bytes = 0;
    for (const id of this.files.keys()) bytes += this.options.library.document(id)?.bytes ?? 0;
    return bytes;
  }

  /** The file went from the library: stop reading it; reconciliation removes it from the index. */
  private dequeue(documentId: string): void {
    this.scheduler.remove(fileKey(documentId));
    this.scheduler.abort(fileKey(documentId));
    this.emitProgress();
  }

  /** Background embedding's page-vector pass, reported beside the other kinds of work. */
  pageVectorProgress(done: number, total: number): void {
    this.meter.pageVectors(done, total);
    this.emitProgress();
  }

  private onIdle(): void {
    if (this.disposed) return;
    this.meter.working('text', null);
    this.meter.pause();
    this.emitProgress(true);
    this.tidying.onIdle();
    this.events.emit('idle', null);
  }

  private emitProgress(force = false): void {
    if (!this.disposed) this.pacer.changed(force);
  }
}
