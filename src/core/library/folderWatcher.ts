import { sep } from 'node:path';
import { watch, type FSWatcher } from 'chokidar';
import { documentKindOf } from '../documents/readers/formatReaders';

/** Watches a library folder for documents that appear, change or go; hidden files and others are ignored. */
export function watchFolder(path: string): FSWatcher {
  return watch(path, {
    ignoreInitial: true,
    // Symlinked folders are read by the scan; following them here could loop forever.
    followSymlinks: false,
    depth: 64,
    ignored: (file, stats) =>
      file.split(sep).some((part) => part.startsWith('.') && part.length > 1) ||
      (stats?.isFile() === true && documentKindOf(file) === null),
    awaitWriteFinish: { stabilityThreshold: 250, pollInterval: 50 },
  });
}
