import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { startWorker } from '../../common/entryPoints';
import { QuireError } from '../../../shared/errors';
import type { DocumentKind } from '../../../shared/domain/library';
import type { PageImageStore } from '../render/pageImageStore';
import type { DrawablePage } from '../render/laidOutRaster';
import type { PdfPagesRead } from '../pdf/parsePdf';
import type { PageImageRef, ParsedDocument } from '../types';
import type { OcrPageOutcome } from '../ocr/recognizePdfPages';
import { inBatches, range } from './batches';
import { queuePosition } from './jobOrder';
import { parsePdfInRanges, PDF_RANGE_PAGES, RANGES_FROM, splitsIntoRanges } from './pdfRanges';
import type { DocumentJob, JobRequest, JobResponse, LongPdf, OcrSource } from './protocol';
import * as limits from './workerLimits';

export interface DocumentPoolOptions {
  /** Worker threads; defaults to the machine's available parallelism. */
  size?: number;
  /** A job running longer than this is stopped (its worker is replaced) and fails with `timeout`. */
  jobTimeoutMs?: number;
  /** A worker is replaced by a fresh one after this many jobs (never by default). */
  recycleAfterJobs?: number;
  /** Pages drawn per render job; the time limit applies to each batch. */
  renderBatchPages?: number;
  /** Heap limit of each worker, so one pathological file cannot take the app's memory. */
  workerHeapMb?: number;
  /** Background jobs of each kind that may run now: the memory budget's say (at least one runs). */
  workerLimit?: (work: limits.PoolWork) => number;
  /** A worker idle this long exits and gives its memory back; the next job starts a fresh one. */
  idleExitMs?: number | undefined;
  /**
   * The most pages of one PDF that are read (DEFAULT_MAX_PAGES_PER_DOCUMENT unless given): a file with
   * more is read up to here and says so (ParsedDocument.pagesInFile). `--max-pages` raises it.
   */
  maxPagesPerDocument?: number;
}

/**
 * Four times the longest file in the test corpus (2,400 pages), past the longest manuals people index
 * (about 5,000 pages): a file claiming more is far more often a page tree listing pages over and over
 * than a book, and reading 200,000 such pages took 406 s and 1.6 GB before any image was drawn.
 */
export const DEFAULT_MAX_PAGES_PER_DOCUMENT = 10_000;

interface JobOptions {
  signal?: AbortSignal;
  /** Overrides the pool's time limit for this job. */
  timeoutMs?: number;
  /**
   * Someone is waiting for it (a page opened in the viewer): it goes ahead of every queued background
   * job (indexing, OCR, drawing), behind other urgent ones.
   */
  urgent?: boolean;
}

export interface ParseJobOptions extends JobOptions {
  kind: DocumentKind;
  password?: string;
  /** Merge the OCR results kept for this content into the pages that need them. */
  ocr?: OcrSource;
  /** PDF: judge text layers by their text alone; `checkLayers` measures the pages later. */
  textOnly?: boolean;
  /** The page count the file was listed with: a long PDF is read in ranges over every worker. */
  pageCount?: number;
}

export interface OcrJobOptions extends JobOptions {
  /** The document's format: its reader draws the pages. */
  kind: DocumentKind;
  pages: number[];
  password?: string;
  ocr: OcrSource;
  /** Called as each batch of pages is read, with what became of them. */
  onPages?: (outcomes: OcrPageOutcome[]) => void;
}

export interface RenderJobOptions extends JobOptions {
  /** The document's kind; PDF when absent. */
  kind?: DocumentKind;
  contentHash: string;
  pages?: number[];
  password?: string;
  longEdge?: number;
}

export interface DocumentPool {
  readonly size: number;
  /** The most pages of one PDF read (DocumentPoolOptions.maxPagesPerDocument). */
  readonly maxPagesPerDocument: number;
  parse(path: string, options: ParseJobOptions): Promise<ParsedDocument>;
  /**
   * Of `pages` of a PDF, judged sound by their text alone, those PDFium's measure shows need OCR after
   * all (see layerCheck.ts). Long lists go to the workers in ranges.
   */
  checkLayers(path: string, options: JobOptions & { pages: number[]; password?: string }): Promise<number[]>;
  /**
   * Renders pages (all when `pages` is absent) into `store`, reusing pages already stored at that size.
   * Pages go to the workers in batches, several at once; the time limit applies to each batch.
   */
  render(path: string, options: RenderJobOptions, store: PageImageStore): Promise<PageImageRef[]>;
  /** One page as Quire laid it out (kinds other than PDF and pictures), for the text view. */
  pageText(path: string, options: JobOptions & { kind: DocumentKind; page: number }): Promise<DrawablePage>;
  /**
   * Reads pages with OCR into the OCR store (`options.ocr.storeRoot`), skipping pages already there.
   * Pages go to the workers in small batches; each page is saved as soon as it is read, so a batch
   * that times out or crashes loses at most the page it was on.
   */
  ocr(path: string, options: OcrJobOptions): Promise<OcrPageOutcome[]>;
  /** Jobs waiting plus jobs running. */
  pending(): number;
  /** Worker threads started so far (first starts, replacements after a timeout, crash or recycling). */
  workersStarted(): number;
  /** Workers alive now, for the memory budget. */
  workersAlive(): limits.PoolWorkers;
  /** Fails queued and running jobs with `cancelled` and stops the workers. */
  dispose(): Promise<void>;
}

export const DEFAULT_JOB_TIMEOUT_MS = 180_000;
const DEFAULT_WORKER_HEAP_MB = 1024;
const DEFAULT_RENDER_BATCH_PAGES = 16;
// OCR takes seconds a page: small batches keep each well inside the time limit.
const OCR_BATCH_PAGES = 4;
// Off by default: on the bench, replacing workers every few jobs raised peak RSS rather than lowering it.
const DEFAULT_RECYCLE_AFTER_JOBS = Infinity;

interface PendingJob {
  id: number;
  job: DocumentJob;
  timeoutMs: number;
  signal: AbortSignal | undefined;
  urgent: boolean;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
  onAbort: () => void;
}

interface Slot {
  worker: Worker | null;
  running: PendingJob | null;
  timer: NodeJS.Timeout | null;
  /** Jobs the current worker has finished. */
  jobsDone: number;
  /** The spare slot: takes only urgent jobs, when every other slot is busy. */
  urgentOnly?: boolean;
  idleTimer?: NodeJS.Timeout | null;
  /** When the current worker last ran OCR (its engine stays loaded for a while after). */
  ocrAt?: number;
}

/**
 * Runs parse and render jobs on worker threads, so the main thread only ever sees finished results.
 * A job that hangs, crashes its worker or is cancelled costs that worker, never the pool: the slot
 * starts a fresh worker for the next job.
 */
export function createDocumentPool(options: DocumentPoolOptions = {}): DocumentPool {
  const size = Math.max(1, Math.floor(options.size ?? availableParallelism()));
  const defaultTimeoutMs = options.jobTimeoutMs ?? DEFAULT_JOB_TIMEOUT_MS;
  const heapMb = options.workerHeapMb ?? DEFAULT_WORKER_HEAP_MB;
  const recycleAfterJobs = Math.max(1, options.recycleAfterJobs ?? DEFAULT_RECYCLE_AFTER_JOBS);
  const renderBatchPages = Math.max(1, Math.floor(options.renderBatchPages ?? DEFAULT_RENDER_BATCH_PAGES));
  const idleExitMs = options.idleExitMs ?? limits.IDLE_EXIT_MS;
  const maxPages = Math.max(1, Math.floor(options.maxPagesPerDocument ?? DEFAULT_MAX_PAGES_PER_DOCUMENT));
  const limitOf = (work: limits.PoolWork) => options.workerLimit?.(work) ?? size;
  const slots: Slot[] = Array.from({ length: size }, () => ({
    worker: null,
    running: null,
    timer: null,
    jobsDone: 0,
  }));
  // A page someone is waiting for must not wait for a long background batch (OCR of a scan can take a
  // minute) to end: one spare worker serves urgent jobs when the others are all busy.
  slots.push({ worker: null, running: null, timer: null, jobsDone: 0, urgentOnly: true });
  const queue: PendingJob[] = [];
  let nextId = 1;
  let started = 0;
  let closed = false;

  function spawn(slot: Slot): Worker {
    started++;
    const worker = startWorker(import.meta.url, './document.worker.ts', {
      resourceLimits: { maxOldGenerationSizeMb: heapMb },
    });
    worker.unref();
    worker.on('message', (response: JobResponse) => {
      const job = slot.running;
      if (!job || job.id !== response.id) return;
      finish(slot);
      // A fresh isolate drops whatever pdfjs cached; worth it only for very long sessions.
      if (++slot.jobsDone >= recycleAfterJobs) retire(slot);
      if (response.ok) job.resolve(response.value);
      else job.reject(new QuireError(response.error.code, response.error.message, response.error.details));
      pump();
    });
    worker.on('error', (error) => lose(slot, worker, error));
    worker.on('exit', (code) => lose(slot, worker, new Error(`exit code ${code}`)));
    return worker;
  }

  /** The worker died under a job (crash, out of memory): fail the job, start over with a new worker. */
  function lose(slot: Slot, worker: Worker, cause: Error) {
    if (slot.worker !== worker) return;
    slot.worker = null;
    slot.jobsDone = 0;
    const job = slot.running;
    if (!job) return;
    finish(slot);
    const outOfMemory = (cause as NodeJS.ErrnoException).code === 'ERR_WORKER_OUT_OF_MEMORY';
    job.reject(
      outOfMemory
        ? new QuireError('unsupported', 'This document needs more memory than the reader may use.')
        : new QuireError('internal', `The document reader stopped unexpectedly (${cause.message}).`),
    );
    pump();
  }

  /** Stops an idle slot's worker; the slot starts a fresh one for its next job. */
  function retire(slot: Slot) {
    const worker = slot.worker;
    slot.worker = null;
    slot.jobsDone = 0;
    delete slot.ocrAt;
    worker?.terminate().catch(() => undefined);
  }

  function finish(slot: Slot) {
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = null;
    const job = slot.running;
    slot.running = null;
    job?.signal?.removeEventListener('abort', job.onAbort);
  }

  /** Stops the slot's worker (the only way to interrupt pdfjs mid-page) and fails its job. */
  function stop(slot: Slot, error: QuireError) {
    const job = slot.running;
    const worker = slot.worker;
    slot.worker = null;
    slot.jobsDone = 0;
    finish(slot);
    worker?.terminate().catch(() => undefined);
    job?.reject(error);
    pump();
  }

  function pump() {
    for (const slot of slots) {
      if (closed || slot.running || queue.length === 0) continue;
      const at = limits.nextJobFor(slot, slots, queue, limitOf);
      if (at < 0) continue;
      const [job] = queue.splice(at, 1) as [PendingJob];
      if (slot.idleTimer) clearTimeout(slot.idleTimer);
      slot.idleTimer = null;
      slot.worker ??= spawn(slot);
      if (job.job.type === 'ocr') slot.ocrAt = Date.now();
      slot.running = job;
      slot.timer = setTimeout(
        () =>
          stop(
            slot,
            new QuireError(
              'timeout',
              `Reading the document took longer than the ${formatMs(job.timeoutMs)} limit.`,
              { limitMs: job.timeoutMs },
            ),
          ),
        job.timeoutMs,
      );
      slot.worker.postMessage({ id: job.id, job: job.job } satisfies JobRequest);
    }
    for (const slot of slots) if (!closed) limits.idleExitLater(slot, idleExitMs, () => retire(slot));
  }

  function submit<T>(job: DocumentJob, jobOptions: JobOptions): Promise<T> {
    if (closed) return Promise.reject(new QuireError('cancelled', 'The document reader is closed.'));
    const signal = jobOptions.signal;
    if (signal?.aborted) return Promise.reject(new QuireError('cancelled', 'Cancelled.'));
    return new Promise<T>((resolve, reject) => {
      const pendingJob: PendingJob = {
        id: nextId++,
        job,
        timeoutMs: jobOptions.timeoutMs ?? defaultTimeoutMs,
        signal,
        urgent: jobOptions.urgent === true,
        resolve: resolve as (value: unknown) => void,
        reject,
        onAbort: () => {
          const queued = queue.indexOf(pendingJob);
          if (queued >= 0) {
            queue.splice(queued, 1);
            reject(new QuireError('cancelled', 'Cancelled.'));
            return;
          }
          const slot = slots.find((candidate) => candidate.running === pendingJob);
          if (slot) stop(slot, new QuireError('cancelled', 'Cancelled.'));
        },
      };
      signal?.addEventListener('abort', pendingJob.onAbort, { once: true });
      queue.splice(queuePosition(queue, pendingJob), 0, pendingJob);
      pump();
    });
  }

  return {
    size,
    maxPagesPerDocument: maxPages,
    async parse(path, { kind, password, ocr, textOnly, pageCount, ...jobOptions }) {
      const passwordOption = password === undefined ? {} : { password };
      const read = {
        ...passwordOption,
        ...(ocr ? { ocr } : {}),
        ...(textOnly ? { textOnly } : {}),
        maxPages,
      };
      const inRanges = (count: number, repeats?: LongPdf['repeats']) =>
        parsePdfInRanges(
          { path, pageCount: count, ...read, ...(repeats ? { repeats: new Map(repeats) } : {}) },
          size,
          (job, signal) => submit<PdfPagesRead>(job, { ...jobOptions, signal }),
          jobOptions.signal,
        );
      if (kind !== 'pdf' || pageCount !== undefined) {
        if (kind === 'pdf' && splitsIntoRanges(pageCount)) return inRanges(pageCount);
        return submit<ParsedDocument>({ type: 'parse', path, kind, ...read }, jobOptions);
      }
      // Not counted yet: the worker reads a short file whole, and of a long one tells the length and
      // the pages that repeat an earlier page, so the ranges read each page object once.
      const job: DocumentJob = { type: 'parse', path, kind, ...read, rangesFrom: RANGES_FROM };
      const first = await submit<ParsedDocument | LongPdf>(job, jobOptions);
      return 'longPdfPages' in first ? inRanges(first.longPdfPages, first.repeats) : first;
    },
    checkLayers(path, { pages, password, ...jobOptions }) {
      return inBatches(pages, PDF_RANGE_PAGES, size, (batch) =>
        submit<number[]>(
          { type: 'layerCheck', path, pages: batch, ...(password === undefined ? {} : { password }) },
          jobOptions,
        ),
      );
    },
    pageText(path, { kind, page, ...jobOptions }) {
      return submit<DrawablePage>({ type: 'pageText', path, kind, page }, jobOptions);
    },
    ocr(path, { kind, pages, password, ocr, onPages, ...jobOptions }) {
      return inBatches(pages, OCR_BATCH_PAGES, size, async (batch) => {
        const job: DocumentJob = {
          type: 'ocr',
          path,
          kind,
          pages: batch,
          ocr,
          ...(password === undefined ? {} : { password }),
        };
        const outcomes = await submit<OcrPageOutcome[]>(job, jobOptions);
        onPages?.(outcomes);
        return outcomes;
      });
    },
    async render(path, { kind = 'pdf', contentHash, pages, password, longEdge, ...jobOptions }, store) {
      const passwordOption = password === undefined ? {} : { password };
      const wanted =
        pages ??
        range(await submit<number>({ type: 'countPages', path, kind, ...passwordOption }, jobOptions));
      // A long document renders in batches: each gets the time limit, other documents' jobs interleave,
      // and up to one batch per worker runs at once, so one long file still uses every core.
      return inBatches(wanted, renderBatchPages, size, (batch) => {
        const job: DocumentJob = {
          type: 'render',
          kind,
          path,
          storeRoot: store.root,
          contentHash,
          pages: batch,
          ...passwordOption,
          ...(longEdge === undefined ? {} : { longEdge }),
        };
        return submit<PageImageRef[]>(job, jobOptions);
      });
    },
    workersStarted() {
      return started;
    },
    workersAlive() {
      return limits.workersAlive(slots);
    },
    pending() {
      return queue.length + slots.filter((slot) => slot.running).length;
    },
    async dispose() {
      closed = true;
      const cancelled = () => new QuireError('cancelled', 'The document reader was closed.');
      for (const job of queue.splice(0)) {
        job.signal?.removeEventListener('abort', job.onAbort);
        job.reject(cancelled());
      }
      const workers = slots.map((slot) => slot.worker).filter((worker): worker is Worker => worker !== null);
      for (const slot of slots) {
        slot.worker = null;
        if (slot.idleTimer) clearTimeout(slot.idleTimer);
        const job = slot.running;
        finish(slot);
        job?.reject(cancelled());
      }
      await Promise.all(workers.map((worker) => worker.terminate().catch(() => undefined)));
    },
  };
}

function formatMs(ms: number): string {
  return ms >= 1000 ? `${Math.round(ms / 100) / 10} s` : `${ms} ms`;
}
