import type { Dirent } from 'node:fs';
import { opendir, realpath, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { documentKindOf } from '../documents/readers/formatReaders';
import type { DocumentKind } from '../../shared/domain/library';

export interface FoundFile {
  path: string;
  kind: DocumentKind;
  bytes: number;
  modifiedMs: number;
}

export interface WalkOptions {
  signal?: AbortSignal;
  /** Symlinked folders are followed once; deeper than this is treated as a loop. */
  maxDepth?: number;
}

/**
 * Lists every document under `root`, depth-first with an explicit stack (no recursion limit), following
 * symlinks but visiting each real folder once, so symlink loops end. Unreadable entries are skipped:
 * one bad folder must not hide the rest of the library.
 */
export async function* walkDocuments(root: string, options: WalkOptions = {}): AsyncGenerator<FoundFile> {
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
        const target = await stat(path).catch(() => null);
        if (!target) continue;
        isDirectory = target.isDirectory();
        isFile = target.isFile();
      }
      if (isDirectory) {
        if (depth < maxDepth) stack.push({ dir: path, depth: depth + 1 });
        continue;
      }
      const kind = isFile ? documentKindOf(path) : null;
      if (!kind) continue;
      const info = await stat(path).catch(() => null);
      if (!info) continue;
      yield { path, kind, bytes: info.size, modifiedMs: Math.trunc(info.mtimeMs) };
    }
  }
}
