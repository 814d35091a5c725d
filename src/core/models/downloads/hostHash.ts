/*
 * The hash a model host states for a file, read before downloading it. Hugging Face answers a
 * `resolve/` URL of a large (LFS) file with a redirect whose X-Linked-Etag is the file's sha256 and
 * X-Linked-Size its size; a small file stored in git answers directly, with its git blob id (a sha1
 * of "blob <size>\0" + content) as the ETag. Other hosts state nothing, and say so.
 */
import { createHash, type Hash } from 'node:crypto';
import type { FetchLike } from '../http/transport';

export type StatedHash =
  | { algorithm: 'sha256'; value: string; sizeBytes: number | null }
  | { algorithm: 'git-blob-sha1'; value: string; sizeBytes: number | null };

function unquote(etag: string | null): string {
  return (etag ?? '').replace(/^W\//, '').replace(/"/g, '').trim().toLowerCase();
}

function sizeFrom(header: string | null): number | null {
  const size = Number(header ?? NaN);
  return Number.isFinite(size) && size >= 0 ? size : null;
}

/** Reads the hash from response headers; null when the host states none this code can check. */
export function statedHashFrom(headers: Headers): StatedHash | null {
  const linked = unquote(headers.get('x-linked-etag'));
  if (/^[0-9a-f]{64}$/.test(linked))
    return { algorithm: 'sha256', value: linked, sizeBytes: sizeFrom(headers.get('x-linked-size')) };
  const etag = unquote(headers.get('etag'));
  if (/^[0-9a-f]{64}$/.test(etag))
    return { algorithm: 'sha256', value: etag, sizeBytes: sizeFrom(headers.get('content-length')) };
  if (/^[0-9a-f]{40}$/.test(etag) && headers.has('x-repo-commit'))
    return { algorithm: 'git-blob-sha1', value: etag, sizeBytes: sizeFrom(headers.get('content-length')) };
  return null;
}

/**
 * Asks the host what it states for `url` without following the redirect to the storage service
 * (whose headers describe the storage object, not the file).
 */
export async function readStatedHash(
  url: string,
  fetchImpl: FetchLike,
  signal: AbortSignal,
): Promise<StatedHash | null> {
  const response = await fetchImpl(url, { method: 'HEAD', redirect: 'manual', signal });
  await response.body?.cancel();
  if (response.status >= 400) return null;
  return statedHashFrom(response.headers);
}

/** Hashes bytes as they arrive, in the way the expected value was computed. */
export class StreamingHash {
  private readonly hash: Hash;

  constructor(
    readonly algorithm: StatedHash['algorithm'],
    totalBytes: number | null,
  ) {
    if (algorithm === 'sha256') {
      this.hash = createHash('sha256');
    } else {
      if (totalBytes === null) throw new Error('A git blob id needs the size up front.');
      this.hash = createHash('sha1').update(`blob ${totalBytes}\0`);
    }
  }

  update(chunk: Uint8Array): void {
    this.hash.update(chunk);
  }

  digest(): string {
    return this.hash.digest('hex');
  }
}
