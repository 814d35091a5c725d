/*
 * One file from a model host into the models folder: the host's stated hash first, a free-space
 * check, a Range request that resumes a partial file, an idle time-out, and a hash computed as the
 * bytes arrive. The file is moved into place only when its hash matches; otherwise it is deleted and
 * the error says so.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat, statfs } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Writable } from 'node:stream';
import { QuireError, toErrorInfo } from '../../../shared/errors';
import type { FetchLike } from '../http/transport';
import { readStatedHash, StreamingHash, type StatedHash } from './hostHash';
import { checkPinnedOnlyRequest, checkPinnedOnlyResponse } from './pinnedHost';
import { isDiskFull } from '../../common/diskSpace';

export interface FileRequest {
  /** The model id shown to the user. */
  model: string;
  url: string;
  /** Path of the finished file inside the models folder (may name a subfolder). */
  fileName: string;
  /** The published sha256 the catalogue pins; null to use the one the host states. */
  sha256?: string | null;
  /** Expected size, used for the space check when the host does not say. */
  sizeBytes?: number;
  /**
   * The host states no hash (GitHub's raw files): the host must be allow-listed and reached over
   * https (pinnedHost.ts), and the file is checked against the pinned sha256 and exact size alone.
   */
  pinnedOnly?: boolean;
}

export interface FileTransferOptions {
  modelsDir: string;
  fetch?: FetchLike;
  /** Bytes free for the models folder. */
  freeBytes?: (dir: string) => Promise<number>;
  openWrite?: (path: string, append: boolean) => Writable;
  /** Longest silence from the server before the download fails. */
  idleTimeoutMs?: number;
}

/** Called with bytes done and the total, when known. */
export type OnBytes = (bytesDone: number, bytesTotal: number | null) => void;

async function defaultFreeBytes(dir: string): Promise<number> {
  const stats = await statfs(dir);
  return Number(stats.bavail) * Number(stats.bsize);
}

function defaultOpenWrite(path: string, append: boolean): Writable {
  return createWriteStream(path, { flags: append ? 'a' : 'w' });
}

export function gigabytes(bytes: number): string {
  return `${(bytes / 1e9).toFixed(bytes < 1e9 ? 2 : 1)} GB`;
}

async function sizeOf(path: string): Promise<number> {
  try {
    return (await stat(path)).size;
  } catch {
    return 0;
  }
}

function write(writer: Writable, chunk: Uint8Array): Promise<void> {
  return new Promise((resolve, reject) =>
    writer.write(chunk, (error) => (error ? reject(error) : resolve())),
  );
}

function finish(writer: Writable): Promise<void> {
  return new Promise((resolve, reject) => {
    writer.once('error', reject);
    writer.end(() => resolve());
  });
}

/** `bytes 100-999/1000` -> start 100, total 1000. */
function parseContentRange(header: string | null): { start: number; total: number | null } | null {
  const match = /^bytes (\d+)-\d+\/(\d+|\*)$/.exec(header ?? '');
  if (!match) return null;
  return { start: Number(match[1]), total: match[2] === '*' ? null : Number(match[2]) };
}

function unreachable(url: string, error: unknown): QuireError {
  const cause = (error as { cause?: { code?: string } }).cause?.code ?? toErrorInfo(error).message;
  return new QuireError(
    'model_unavailable',
    `Could not reach ${new URL(url).host} to download the model (${cause}).`,
    { offline: true },
  );
}

export class FileTransfer {
  constructor(private readonly options: FileTransferOptions) {}

  finalPath(fileName: string): string {
    return join(this.options.modelsDir, fileName);
  }

  partialPath(fileName: string): string {
    return `${this.finalPath(fileName)}.partial`;
  }

  /** Downloads (or resumes) `request`; resolves with the finished file's size. */
  async run(request: FileRequest, signal: AbortSignal, onBytes: OnBytes): Promise<number> {
    if (request.pinnedOnly) checkPinnedOnlyRequest(request);
    const partial = this.partialPath(request.fileName);
    await mkdir(dirname(partial), { recursive: true });
    const fetchImpl = this.options.fetch ?? fetch;
    let stated: StatedHash | null = null;
    if (!request.pinnedOnly) {
      try {
        stated = await readStatedHash(request.url, fetchImpl, signal);
      } catch (error) {
        if (signal.aborted) throw error;
        throw unreachable(request.url, error);
      }
    }
    const expected = this.expectedHash(request, stated);
    const idleMs = this.options.idleTimeoutMs ?? 30_000;
    const idle = new AbortController();
    let timer = setTimeout(() => idle.abort(), idleMs);
    const stillAlive = () => {
      clearTimeout(timer);
      timer = setTimeout(() => idle.abort(), idleMs);
    };
    try {
      return await this.transfer(
        request,
        expected,
        AbortSignal.any([signal, idle.signal]),
        stillAlive,
        onBytes,
      );
    } catch (error) {
      if (idle.signal.aborted && !signal.aborted) {
        throw new QuireError(
          'timeout',
          `The download server for ${request.model} stopped sending data for ${Math.round(idleMs / 1000)} s.`,
        );
      }
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }

  /** The pinned sha256, checked against what the host states; else the host's own value. */
  private expectedHash(request: FileRequest, stated: StatedHash | null): StatedHash {
    const host = new URL(request.url).host;
    const pinned = request.sha256?.toLowerCase() ?? null;
    if (pinned) {
      if (stated?.algorithm === 'sha256' && stated.value !== pinned) {
        throw new QuireError(
          'model_failed',
          `${host} now serves a different ${request.fileName} (sha256 ${stated.value}) than the catalogue pins (${pinned}); nothing was downloaded.`,
        );
      }
      return {
        algorithm: 'sha256',
        value: pinned,
        sizeBytes: stated?.sizeBytes ?? request.sizeBytes ?? null,
      };
    }
    if (stated) return stated;
    throw new QuireError(
      'model_failed',
      `${host} states no sha256 for ${request.fileName} and none is published, so it cannot be verified; nothing was downloaded.`,
    );
  }

  private async fetchFrom(url: string, offset: number, signal: AbortSignal): Promise<Response> {
    const fetchImpl = this.options.fetch ?? fetch;
    let response: Response;
    try {
      response = await fetchImpl(url, {
        headers: offset > 0 ? { range: `bytes=${offset}-` } : {},
        signal,
        redirect: 'follow',
      });
    } catch (error) {
      if (signal.aborted) throw error;
      throw unreachable(url, error);
    }
    if (response.status === 416 && offset > 0) {
      // The partial file is not a prefix the server knows: start over.
      await response.body?.cancel();
      return this.fetchFrom(url, 0, signal);
    }
    if (!response.ok) {
      await response.body?.cancel();
      throw new QuireError(
        'model_unavailable',
        `The download server answered ${response.status} for ${url}.`,
      );
    }
    return response;
  }

  private async transfer(
    request: FileRequest,
    expected: StatedHash,
    signal: AbortSignal,
    stillAlive: () => void,
    onBytes: OnBytes,
  ): Promise<number> {
    const partial = this.partialPath(request.fileName);
    const existing = await sizeOf(partial);
    const response = await this.fetchFrom(request.url, existing, signal);
    stillAlive();
    if (request.pinnedOnly) {
      try {
        checkPinnedOnlyResponse(response, request.fileName);
      } catch (error) {
        await response.body?.cancel();
        throw error;
      }
    }
    let offset = 0;
    let total: number | null;
    if (response.status === 206) {
      const range = parseContentRange(response.headers.get('content-range'));
      offset = range !== null && range.start === existing ? range.start : 0;
      total = range?.total ?? null;
    } else {
      total = Number(response.headers.get('content-length') ?? NaN);
      if (!Number.isFinite(total)) total = expected.sizeBytes ?? request.sizeBytes ?? null;
    }
    onBytes(offset, total);
    if (request.pinnedOnly && total !== null && total !== request.sizeBytes) {
      await response.body?.cancel();
      await rm(partial, { force: true });
      throw new QuireError(
        'model_failed',
        `${new URL(request.url).host} serves ${total} bytes for ${request.fileName}, not the ${request.sizeBytes} Quire pins; nothing was kept.`,
      );
    }
    if (total !== null) {
      try {
        await this.ensureSpace(request, total - offset);
      } catch (error) {
        await response.body?.cancel();
        throw error;
      }
    }
    const hash = new StreamingHash(expected.algorithm, total ?? expected.sizeBytes);
    // A resumed download hashes what is already on disk first, so the whole file is checked.
    if (offset > 0)
      for await (const chunk of createReadStream(partial, { end: offset - 1 })) hash.update(chunk as Buffer);

    const writer = (this.options.openWrite ?? defaultOpenWrite)(partial, offset > 0);
    writer.on('error', () => undefined);
    let bytesDone = offset;
    try {
      for await (const chunk of (response.body ?? []) as AsyncIterable<Uint8Array>) {
        stillAlive();
        await write(writer, chunk);
        hash.update(chunk);
        bytesDone += chunk.byteLength;
        onBytes(bytesDone, total);
      }
      await finish(writer);
    } catch (error) {
      writer.destroy();
      if (isDiskFull(error)) {
        throw new QuireError(
          'disk_full',
          `The disk holding ${this.options.modelsDir} is full: ${request.model} stopped at ${gigabytes(bytesDone)}. Free some space and resume.`,
        );
      }
      if (signal.aborted) throw error;
      throw new QuireError(
        'model_unavailable',
        `The download of ${request.model} broke off: ${toErrorInfo(error).message}`,
      );
    }
    if (total !== null && bytesDone < total) {
      throw new QuireError(
        'model_unavailable',
        `The download of ${request.model} ended early (${bytesDone} of ${total} bytes).`,
      );
    }
    const actual = hash.digest();
    const wrongSize = request.pinnedOnly === true && bytesDone !== request.sizeBytes;
    if (actual !== expected.value || wrongSize) {
      await rm(partial, { force: true });
      const what = expected.algorithm === 'sha256' ? 'sha256' : 'git blob id';
      throw new QuireError(
        'model_failed',
        `The downloaded ${request.fileName} does not match its ${what} (got ${actual}, expected ${expected.value}); the file was deleted. Try the download again.`,
      );
    }
    await rename(partial, this.finalPath(request.fileName));
    return bytesDone;
  }

  private async ensureSpace(request: FileRequest, needed: number): Promise<void> {
    const dir = this.options.modelsDir;
    const free = await (this.options.freeBytes ?? defaultFreeBytes)(dir);
    if (needed > free) {
      throw new QuireError(
        'disk_full',
        `Not enough disk space for ${request.model}: it needs ${gigabytes(needed)} more and ${gigabytes(free)} is free in ${dir}.`,
      );
    }
  }
}
