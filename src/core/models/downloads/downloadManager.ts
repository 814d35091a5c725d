/*
 * Model downloads as jobs the user can watch and steer: progress with speed and ETA, pause (the
 * partial file stays), resume, cancel (the partial file goes). A job is a file from a model host
 * (fileTransfer.ts) or a model pulled into a running Ollama (`ollama pull`, with its own progress).
 */
import { rm } from 'node:fs/promises';
import type { DownloadProgress } from '../../../shared/domain/models';
import { QuireError, toErrorInfo } from '../../../shared/errors';
import type { FetchLike } from '../http/transport';
import { OllamaClient } from '../ollama/ollamaClient';
import { FileTransfer, type FileRequest, type FileTransferOptions } from './fileTransfer';

export interface FileDownloadRequest extends FileRequest {
  kind?: 'file';
  /** The job's id; the model id unless given. */
  id?: string;
}

export interface OllamaPullRequest {
  kind: 'ollama';
  id?: string;
  /** The Ollama model name, e.g. `qwen3:4b`. */
  model: string;
  /** The Ollama server's base URL. */
  endpoint: string;
}

export type DownloadRequest = FileDownloadRequest | OllamaPullRequest;

export interface DownloadManagerOptions extends Omit<FileTransferOptions, 'fetch'> {
  onProgress?: (progress: DownloadProgress) => void;
  fetch?: FetchLike;
  now?: () => number;
  /** Least time between two byte-count events; state changes are always sent. */
  progressIntervalMs?: number;
}

interface Job {
  request: DownloadRequest;
  progress: DownloadProgress;
  controller: AbortController | null;
  running: Promise<void> | null;
  stopAs: 'paused' | 'cancelled' | null;
  samples: Array<{ at: number; bytes: number }>;
  lastEmit: number;
}

const SPEED_WINDOW_MS = 5000;

export class DownloadManager {
  private readonly jobs = new Map<string, Job>();
  private readonly now: () => number;
  private readonly files: FileTransfer;

  constructor(private readonly options: DownloadManagerOptions) {
    this.now = options.now ?? Date.now;
    this.files = new FileTransfer(options);
  }

  /** Where a finished file download lives. */
  filePath(fileName: string): string {
    return this.files.finalPath(fileName);
  }

  list(): DownloadProgress[] {
    return [...this.jobs.values()].map((job) => ({ ...job.progress }));
  }

  get(id: string): DownloadProgress {
    return { ...this.job(id).progress };
  }

  /** Starts (or joins) a download; a partial file from an earlier run is resumed. */
  start(request: DownloadRequest): DownloadProgress {
    const id = request.id ?? request.model;
    const existing = this.jobs.get(id);
    if (existing && (existing.running || existing.progress.state === 'done')) return { ...existing.progress };
    const job: Job = existing ?? {
      request,
      progress: {
        id,
        model: request.model,
        source: request.kind === 'ollama' ? 'ollama' : 'file',
        state: 'queued',
        bytesDone: 0,
        bytesTotal: request.kind === 'ollama' ? null : (request.sizeBytes ?? null),
        bytesPerSecond: 0,
        etaSeconds: null,
        error: null,
      },
      controller: null,
      running: null,
      stopAs: null,
      samples: [],
      lastEmit: 0,
    };
    job.request = request;
    this.jobs.set(id, job);
    this.launch(job);
    return { ...job.progress };
  }

  pause(id: string): DownloadProgress {
    const job = this.job(id);
    if (job.running) {
      job.stopAs = 'paused';
      job.controller?.abort('paused');
    }
    return { ...job.progress };
  }

  resume(id: string): DownloadProgress {
    const job = this.job(id);
    if (!job.running && (job.progress.state === 'paused' || job.progress.state === 'failed'))
      this.launch(job);
    return { ...job.progress };
  }

  /** Stops the download and removes the partial file (Ollama keeps its own partial layers). */
  async cancel(id: string): Promise<DownloadProgress> {
    const job = this.job(id);
    if (job.progress.state === 'done') return { ...job.progress };
    job.stopAs = 'cancelled';
    job.controller?.abort('cancelled');
    await job.running;
    if (job.request.kind !== 'ollama')
      await rm(this.files.partialPath(job.request.fileName), { force: true });
    this.update(job, { state: 'cancelled', bytesPerSecond: 0, etaSeconds: null }, true);
    return { ...job.progress };
  }

  /** Resolves when the current run stops: done, failed, paused or cancelled. */
  async settled(id: string): Promise<DownloadProgress> {
    await this.job(id).running;
    return { ...this.job(id).progress };
  }

  /** Stops every running job, keeping partial files for the next start. */
  async dispose(): Promise<void> {
    const running = [...this.jobs.values()].filter((job) => job.running);
    for (const job of running) this.pause(job.progress.id);
    await Promise.allSettled(running.map((job) => job.running));
  }

  private job(id: string): Job {
    const job = this.jobs.get(id);
    if (!job) throw new QuireError('not_found', `No download with id ${id}.`);
    return job;
  }

  private launch(job: Job): void {
    job.stopAs = null;
    job.samples = [];
    job.controller = new AbortController();
    this.update(job, { state: 'downloading', error: null }, true);
    job.running = this.run(job, job.controller.signal)
      .then((bytes) =>
        this.update(
          job,
          { state: 'done', bytesDone: bytes, bytesTotal: bytes, bytesPerSecond: 0, etaSeconds: 0 },
          true,
        ),
      )
      .catch((error: unknown) => {
        if (job.stopAs === 'paused')
          this.update(job, { state: 'paused', bytesPerSecond: 0, etaSeconds: null }, true);
        else if (job.stopAs !== 'cancelled') {
          this.update(
            job,
            { state: 'failed', bytesPerSecond: 0, etaSeconds: null, error: toErrorInfo(error).message },
            true,
          );
        }
      })
      .finally(() => {
        job.running = null;
        job.controller = null;
      });
  }

  private async run(job: Job, signal: AbortSignal): Promise<number> {
    const onBytes = (bytesDone: number, bytesTotal: number | null) =>
      this.recordBytes(job, bytesDone, bytesTotal);
    const request = job.request;
    if (request.kind !== 'ollama') return this.files.run(request, signal, onBytes);
    const client = new OllamaClient({ baseUrl: request.endpoint, fetch: this.options.fetch });
    await client.pull(request.model, (progress) => onBytes(progress.bytesDone, progress.bytesTotal), signal);
    return job.progress.bytesTotal ?? job.progress.bytesDone;
  }

  private update(job: Job, change: Partial<DownloadProgress>, always: boolean): void {
    job.progress = { ...job.progress, ...change };
    const now = this.now();
    if (always || now - job.lastEmit >= (this.options.progressIntervalMs ?? 250)) {
      job.lastEmit = now;
      this.options.onProgress?.({ ...job.progress });
    }
  }

  private recordBytes(job: Job, bytesDone: number, bytesTotal: number | null): void {
    const now = this.now();
    job.samples.push({ at: now, bytes: bytesDone });
    while (job.samples.length > 2 && now - job.samples[0]!.at > SPEED_WINDOW_MS) job.samples.shift();
    const oldest = job.samples[0]!;
    const seconds = (now - oldest.at) / 1000;
    const bytesPerSecond = seconds > 0 ? Math.max(0, (bytesDone - oldest.bytes) / seconds) : 0;
    const total = bytesTotal ?? job.progress.bytesTotal;
    const etaSeconds =
      total !== null && bytesPerSecond > 0 ? Math.max(0, (total - bytesDone) / bytesPerSecond) : null;
    this.update(job, { bytesDone, bytesTotal: total, bytesPerSecond, etaSeconds }, false);
  }
}
