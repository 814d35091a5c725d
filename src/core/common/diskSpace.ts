import { statfs } from 'node:fs/promises';
import { dirname } from 'node:path';
import { QuireError } from '../../shared/errors';

/**
 * A write that failed for want of room: Node's ENOSPC or EDQUOT (a quota), or LanceDB's IO error,
 * which reaches JavaScript as a plain Error whose message carries the OS error.
 */
export function isDiskFull(error: unknown): boolean {
  if (error instanceof QuireError) return error.code === 'disk_full';
  const code = (error as NodeJS.ErrnoException | null)?.code;
  if (code === 'ENOSPC' || code === 'EDQUOT') return true;
  const message = error instanceof Error ? error.message : '';
  return /No space left on device|Disk quota exceeded|os error (28|122)\b/i.test(message);
}

/** Bytes free to this user on the disk holding `path` (or its nearest existing parent); null when unknown. */
export async function freeBytes(path: string): Promise<number | null> {
  for (let at = path; ; at = dirname(at)) {
    try {
      const stats = await statfs(at);
      return Number(stats.bavail) * Number(stats.bsize);
    } catch {
      if (dirname(at) === at) return null;
    }
  }
}

const MB = 1024 * 1024;

export function megabytes(bytes: number): number {
  return Math.ceil(bytes / MB);
}

/**
 * The error a full disk is reported with, everywhere: how much is free where Quire writes and about
 * how much the work needs, so the user knows how much to free; `what` says what stopped and what next.
 */
export async function diskFullError(dir: string, neededBytes: number, what: string): Promise<QuireError> {
  const free = await freeBytes(dir);
  const freeMb = free === null ? null : Math.floor(free / MB);
  const neededMb = Math.max(1, megabytes(neededBytes));
  const room = freeMb === null ? `${neededMb} MB needed` : `${freeMb} MB free, ${neededMb} MB needed`;
  return new QuireError('disk_full', `The disk is full: ${room} in ${dir}. ${what}`, {
    dir,
    freeMb,
    neededMb,
  });
}
