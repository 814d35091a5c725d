/*
 * The one rule for which files Quire may read: a file counts only if its real path (every symlink
 * followed) lies inside the real path of a library root, and it is a regular file. The folder walk, the
 * watcher, ingestion and page drawing, and the agent's file tools all ask here.
 */
import { lstat, realpath, stat } from 'node:fs/promises';
import { QuireError } from '../../shared/errors';
import { isInside } from '../common/paths';

export type PathVerdict =
  | { inside: true; realPath: string }
  | {
      inside: false;
      /** Why the file is skipped, in words shown to the user. */
      reason: string;
    };

/** The real paths of the roots that exist now; a root that vanished holds nothing. */
export async function realRoots(roots: readonly string[]): Promise<string[]> {
  const resolved = await Promise.all(roots.map((root) => realpath(root).catch(() => null)));
  return resolved.filter((root): root is string => root !== null);
}

export function isInsideAny(realPath: string, roots: readonly string[]): boolean {
  return roots.some((root) => isInside(realPath, root));
}

/** Checks one file against roots already resolved with `realRoots`. */
export async function checkFile(path: string, roots: readonly string[]): Promise<PathVerdict> {
  const link = await lstat(path).catch(() => null);
  if (!link) return { inside: false, reason: 'it no longer exists' };
  const real = await realpath(path).catch(() => null);
  if (real === null) return { inside: false, reason: 'it is a link to something that does not exist' };
  if (!isInsideAny(real, roots)) {
    return { inside: false, reason: `it is a link to ${real}, outside the library folders` };
  }
  const target = link.isSymbolicLink() ? await stat(real).catch(() => null) : link;
  if (!target?.isFile()) return { inside: false, reason: 'it is not a regular file' };
  return { inside: true, realPath: real };
}

/** The real path of a file Quire is about to read; throws `outside_library` with the reason otherwise. */
export async function requireInLibrary(path: string, roots: readonly string[]): Promise<string> {
  const verdict = await checkFile(path, await realRoots(roots));
  if (verdict.inside) return verdict.realPath;
  throw new QuireError('outside_library', `${path} is not read: ${verdict.reason}.`, { path });
}
