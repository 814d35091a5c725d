/*
 * Confinement of the file tools to the library roots, by the library's path policy: every path is
 * resolved to its real path (symlinks followed) before the check, so neither `..` nor a link can reach
 * a file outside the roots.
 */
import type { Dirent, Stats } from 'node:fs';
import { lstat, readdir, realpath, stat } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { QuireError } from '../../../shared/errors';
import { isInside } from '../../common/paths';
import { isInsideAny } from '../../library/pathPolicy';

function outside(input: string, roots: string[]): QuireError {
  return new QuireError('outside_library', `"${input}" is outside the library folders.`, {
    suggestion: `Use a path inside ${roots.join(' or ')}, or leave the folder empty for the whole library.`,
  });
}

async function realOrNull(path: string): Promise<string | null> {
  try {
    return await realpath(path);
  } catch {
    return null;
  }
}

/**
 * Resolves an absolute path, or one relative to a root, to a real path inside the roots.
 * Throws QuireError 'outside_library' or 'not_found'.
 */
export async function resolveInLibrary(input: string, roots: string[]): Promise<string> {
  if (input.includes('\0')) throw outside(input, roots);
  const candidates = isAbsolute(input) ? [resolve(input)] : roots.map((root) => resolve(root, input));
  // A path that leaves every root lexically is refused before touching the disk.
  if (!candidates.some((c) => roots.some((root) => isInside(c, root)))) throw outside(input, roots);
  let sawOutside = false;
  for (const candidate of candidates) {
    const real = await realOrNull(candidate);
    if (real === null) continue;
    if (isInsideAny(real, roots)) return real;
    sawOutside = true;
  }
  if (sawOutside) throw outside(input, roots);
  throw new QuireError('not_found', `"${input}" does not exist in the library.`, {
    suggestion: 'Use library or directory_tree to see the paths that exist.',
  });
}

/** The folders to look in: the one asked for, or every root when the input is empty. */
export async function foldersFor(folder: string, roots: string[]): Promise<string[]> {
  const trimmed = folder.trim();
  if (trimmed === '' || trimmed === '.' || trimmed === '/') return roots;
  const real = await resolveInLibrary(trimmed, roots);
  if (!(await stat(real)).isDirectory()) {
    throw new QuireError('not_a_folder', `"${folder}" is a file, not a folder.`, {
      suggestion: 'Use library with part of its name for a single file.',
    });
  }
  return [real];
}

export interface WalkedFile {
  path: string;
  /** Relative to the folder the walk started in. */
  relativePath: string;
  stats: Stats;
}

export interface WalkOptions {
  roots: string[];
  maxDepth: number;
  /** Stops after this many files; `truncated` then reports it. */
  maxFiles: number;
  signal?: AbortSignal;
}

export interface WalkOutcome {
  files: WalkedFile[];
  folders: number;
  truncated: boolean;
}

/** Lists files under `start`, following links only when they stay inside the roots. */
export async function walkFiles(start: string, options: WalkOptions): Promise<WalkOutcome> {
  const outcome: WalkOutcome = { files: [], folders: 0, truncated: false };
  const visited = new Set<string>();
  const visit = async (folder: string, depth: number): Promise<void> => {
    if (visited.has(folder) || outcome.truncated) return;
    visited.add(folder);
    outcome.folders++;
    options.signal?.throwIfAborted();
    let entries: Dirent[];
    try {
      entries = await readdir(folder, { withFileTypes: true });
    } catch {
      return;
    }
    entries.sort((a, b) => a.name.localeCompare(b.name));
    for (const entry of entries) {
      if (outcome.files.length >= options.maxFiles) {
        outcome.truncated = true;
        return;
      }
      let path = join(folder, entry.name);
      if (entry.isSymbolicLink()) {
        const real = await realOrNull(path);
        if (real === null || !isInsideAny(real, options.roots)) continue;
        path = real;
      }
      const stats = await lstat(path).catch(() => null);
      if (!stats) continue;
      if (stats.isDirectory()) {
        if (depth < options.maxDepth) await visit(path, depth + 1);
      } else if (stats.isFile()) {
        outcome.files.push({ path, relativePath: relative(start, join(folder, entry.name)), stats });
      }
    }
  };
  await visit(start, 1);
  return outcome;
}
