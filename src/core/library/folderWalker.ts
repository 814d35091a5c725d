import type { Dirent } from 'node:fs';
import { opendir, realpath, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { documentKindOf } from '../documents/readers/formatReaders';
import { isInsideAny } from './pathPolicy';
import type { DocumentKind } from '../../shared/domain/library';

export interface FoundFile {
  path: string;
  kind: DocumentKind;
  bytes: number;
  modifiedMs: number;
}

export interface WalkOptions {
  /** The library roots' real paths (`realRoots`): a link whose target lies outside all of them is skipped. */
  roots: readonly string[];
  /** Told about every entry that looks like a document but is not read, and why. */
  onSkipped?: (path: string, reason: string) => void;
  signal?: AbortSignal;
  /** Symlinked folders are followed once; deeper than this is treated as a loop. */
  maxDepth?: number;
}

/**
 * Lists every document under `root`, depth-first with an explicit stack (no recursion limit), following
 * symlinks that stay inside the library (the path policy) and visiting each real folder once, so symlink
 * loops end. Unreadable entries are skipped: one bad folder must not hide the rest of the library.
 */
export async function* walkDocuments(root: string, options: WalkOptions): AsyncGenerator<FoundFile> {
  const maxDepth = options.maxDepth ?? 64;
  const visited = new Set<string>();
  const stack: Array<{ dir: string; depth: number }> = [{ dir: root, depth: 0 }];
  while (stack.length > 0) {
    options.signal?.throwIfAborted();
    const { dir, depth } = stack.pop()!;
    const real = await realpath(dir).catch(() => null);
    if (real === null || visited.has(real)) continue;
    visited.add(real);
    let entries: Dirent[];
    try {
      entries = [];
      for await (const entry of await opendir(dir)) entries.push(entry);
    } catch {
      continue;
    }
    entries.sort((a, b) => a.name.localeCompare(b.name));
    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue;
      const path = join(dir, entry.name);
      let isDirectory = entry.isDirectory();
      let isFile = entry.isFile();
      if (entry.isSymbolicLink()) {
        const target = await realpath(path).catch(() => null);
        const info = target === null ? null : await stat(target).catch(() => null);
        if (target === null || info === null) {
          if (documentKindOf(path))
            options.onSkipped?.(path, 'it is a link to something that does not exist');
          continue;
        }
        if (!isInsideAny(target, options.roots)) {
          if (info.isDirectory() || documentKindOf(path)) {
            options.onSkipped?.(path, `it is a link to ${target}, outside the library folders`);
          }
          continue;
        }
        isDirectory = info.isDirectory();
        isFile = info.isFile();
      }
      if (isDirectory) {
        if (depth < maxDepth) stack.push({ dir: path, depth: depth + 1 });
        continue;
      }
      const kind = documentKindOf(path);
      if (!kind) continue;
      if (!isFile) {
        options.onSkipped?.(path, 'it is not a regular file');
        continue;
      }
      const info = await stat(path).catch(() => null);
      if (!info) continue;
      yield { path, kind, bytes: info.size, modifiedMs: Math.trunc(info.mtimeMs) };
    }
  }
}
