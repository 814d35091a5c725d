/**
 * The one order of a library's documents: by path as people read them ("file 2" before "file 10").
 * The engine lists documents in it and the window keeps its copy in it, so a library of ten thousand
 * files is sorted when it is listed, not each time one file changes. One collator serves every
 * comparison: `localeCompare` with options builds one per call.
 */
export const compareLibraryPaths = new Intl.Collator(undefined, { numeric: true }).compare;

/** Whether items are already in library order (a linear check, where sorting would be n log n). */
export function isInLibraryOrder<T>(items: readonly T[], pathOf: (item: T) => string): boolean {
  for (let i = 1; i < items.length; i++) {
    if (compareLibraryPaths(pathOf(items[i - 1]!), pathOf(items[i]!)) > 0) return false;
  }
  return true;
}
