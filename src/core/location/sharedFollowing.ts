import { sep } from 'node:path';

/** How often a reader of a shared library looks for its writer's new commits. */
const REFRESH_MS = 30_000;

/** Refreshes a reader now and then (its writer commits elsewhere); returns the stop. */
export function followWriter(refresh: () => Promise<void>, everyMs = REFRESH_MS): () => void {
  const timer = setInterval(() => {
    refresh().catch((error: unknown) => console.error('quire: could not refresh the shared library', error));
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}

/** A shared library's writer owns only the documents under its own folders (it prunes no others). */
export function underFolders(folders: () => string[]): (doc: { path: string }) => boolean {
  return (doc) =>
    folders().some((folder) => doc.path.startsWith(folder.endsWith(sep) ? folder : folder + sep));
}
