/*
 * A stand-in for a model file host, speaking Hugging Face's wire format for `resolve/` URLs on
 * 127.0.0.1: a large (LFS) file answers with a 302 to its storage URL carrying X-Linked-Etag (the
 * file's sha256), X-Linked-Size and X-Repo-Commit; a small file kept in git answers 200 directly with
 * its git blob id as the ETag. A `raw` file is served as GitHub's raw host serves a repository file:
 * 200 directly (206 for a range), no X-Repo-Commit and no hash Quire reads; its ETag here is
 * deliberately not the file's sha256, so a test shows the ETag is never taken for one.
 * Storage URLs serve byte ranges (206 with Content-Range, 416 past the end), with optional pacing so
 * a download can be paused half-way. Faults are switched on per test.
 */
import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { StandInServer } from './httpStandIn';
import { flushed, pause, startStandIn } from './httpStandIn';

export interface ModelHostBehaviour {
  /** Bytes per write. */
  chunkBytes?: number;
  /** Wait between two writes. */
  delayBetweenChunksMs?: number;
  /** Answer every request with the whole file, as servers without range support do. */
  ignoreRange?: boolean;
  /** State this sha256 instead of the file's own (a host whose file changed, or a lying mirror). */
  statedSha256?: string;
  /** Serve these bytes instead of the file's (corruption in transit or storage). */
  servedBytes?: Buffer;
  /** State no hash at all, as a plain web server does. */
  statesNoHash?: boolean;
}

export interface HostedFile {
  /** `<repository>/resolve/<revision>/<file name>` */
  path: string;
  bytes: Buffer;
  /**
   * `lfs`: large file behind a redirect, hashed with sha256; `git`: small file with a git blob id;
   * `raw`: a file from GitHub's raw host (`<owner>/<repo>/<commit>/<file>`), stating no hash.
   */
  storage?: 'lfs' | 'git' | 'raw';
}

export interface ModelHostStandIn extends StandInServer {
  file: Buffer;
  sha256: string;
  /** The first file's `resolve/` URL. */
  url: string;
  behaviour: ModelHostBehaviour;
  urlOf(path: string): string;
  /** The Range header of each byte request, or null. */
  ranges(): Array<string | null>;
}

const REPO_COMMIT = '0123456789abcdef0123456789abcdef01234567';

/** Deterministic bytes, so a resumed download can be compared with the original. */
export function generatedFile(bytes: number, seed = 12345): Buffer {
  const file = Buffer.alloc(bytes);
  let state = seed;
  for (let index = 0; index < bytes; index++) {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    file[index] = state >>> 24;
  }
  return file;
}

export function sha256Of(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

function gitBlobId(bytes: Buffer): string {
  return createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
}

async function sendBytes(
  bytes: Buffer,
  rangeHeader: string | undefined,
  response: ServerResponse,
  behaviour: ModelHostBehaviour,
  extraHeaders: Record<string, string> = {},
): Promise<void> {
  const range = /^bytes=(\d+)-$/.exec(rangeHeader ?? '');
  let start = 0;
  if (range && !behaviour.ignoreRange) {
    start = Number(range[1]);
    if (start >= bytes.length) {
      response.writeHead(416, { 'content-range': `bytes */${bytes.length}` });
      response.end();
      return;
    }
    response.writeHead(206, {
      ...extraHeaders,
      'content-type': 'application/octet-stream',
      'content-length': bytes.length - start,
      'content-range': `bytes ${start}-${bytes.length - 1}/${bytes.length}`,
      'accept-ranges': 'bytes',
    });
  } else {
    response.writeHead(200, {
      ...extraHeaders,
      'content-type': 'application/octet-stream',
      'content-length': bytes.length,
      'accept-ranges': 'bytes',
    });
  }
  const chunkBytes = behaviour.chunkBytes ?? 64 * 1024;
  for (let offset = start; offset < bytes.length; offset += chunkBytes) {
    if (response.destroyed) return;
    await flushed(response, bytes.subarray(offset, Math.min(bytes.length, offset + chunkBytes)));
    if (behaviour.delayBetweenChunksMs) await pause(behaviour.delayBetweenChunksMs, response);
  }
  response.end();
}

export async function startModelHostStandIn(
  hosted: Buffer | HostedFile[],
  behaviour: ModelHostBehaviour = {},
): Promise<ModelHostStandIn> {
  const files: HostedFile[] = Buffer.isBuffer(hosted)
    ? [{ path: 'org/model/resolve/main/model.gguf', bytes: hosted, storage: 'lfs' }]
    : hosted;
  const state = { behaviour };
  const server = await startStandIn(async (request, response, raw) => {
    const current = state.behaviour;
    const storage = /^\/storage\/(\d+)$/.exec(request.path);
    if (storage) {
      const file = files[Number(storage[1])]!;
      await sendBytes(current.servedBytes ?? file.bytes, request.headers.range, response, current);
      return;
    }
    const index = files.findIndex((file) => `/${file.path}` === request.path);
    const file = files[index];
    if (!file) {
      response.writeHead(404, { 'content-type': 'text/plain', 'x-error-code': 'EntryNotFound' });
      response.end('Entry not found');
      return;
    }
    if (file.storage === 'raw') {
      const etag = { etag: `"${sha256Of(Buffer.concat([Buffer.from('not the file: '), file.bytes]))}"` };
      if (raw.method === 'HEAD') {
        response.writeHead(200, { ...etag, 'content-length': String(file.bytes.length) });
        response.end();
        return;
      }
      await sendBytes(current.servedBytes ?? file.bytes, request.headers.range, response, current, etag);
      return;
    }
    const stated: Record<string, string> = current.statesNoHash ? {} : { 'x-repo-commit': REPO_COMMIT };
    if ((file.storage ?? 'lfs') === 'lfs') {
      const sha = current.statedSha256 ?? sha256Of(file.bytes);
      response.writeHead(302, {
        ...stated,
        ...(current.statesNoHash
          ? {}
          : { 'x-linked-etag': `"${sha}"`, 'x-linked-size': String(file.bytes.length), etag: `"${sha}"` }),
        location: `/storage/${index}`,
        'content-length': '0',
      });
      response.end();
      return;
    }
    const etag: Record<string, string> = current.statesNoHash ? {} : { etag: `"${gitBlobId(file.bytes)}"` };
    if (raw.method === 'HEAD') {
      response.writeHead(200, { ...stated, ...etag, 'content-length': String(file.bytes.length) });
      response.end();
      return;
    }
    await sendBytes(current.servedBytes ?? file.bytes, request.headers.range, response, current, {
      ...stated,
      ...etag,
    });
  });
  const first = files[0]!;
  return Object.defineProperties(server, {
    file: { value: first.bytes },
    sha256: { value: sha256Of(first.bytes) },
    url: { value: `${server.baseUrl}/${first.path}` },
    urlOf: { value: (path: string) => `${server.baseUrl}/${path}` },
    behaviour: { get: () => state.behaviour, set: (value: ModelHostBehaviour) => (state.behaviour = value) },
    ranges: {
      value: () =>
        server.requests
          .filter(
            (entry) =>
              entry.method === 'GET' &&
              (entry.path.startsWith('/storage/') ||
                files.some(
                  (file) =>
                    (file.storage === 'git' || file.storage === 'raw') && `/${file.path}` === entry.path,
                )),
          )
          .map((entry) => (entry.headers.range === undefined ? null : String(entry.headers.range))),
    },
  }) as ModelHostStandIn;
}
