import type { ObjectStore } from './objectStore';

/**
 * Files kept beside the index in a shared library (page images, OCR results), by path relative to
 * one folder of it. The local folder stays the working copy (the writer's output, a reader's cache);
 * this is where every other machine finds them.
 */
export interface StoredFiles {
  upload(relativePath: string, bytes: Uint8Array): Promise<void>;
  /** The file's bytes, or null when the library has none. */
  download(relativePath: string): Promise<Uint8Array | null>;
  /** Deletes every file under a folder (one document's content). */
  removeFolder(relativeFolder: string): Promise<void>;
}

/** The files of one folder of the library (e.g. `pages`) on its object store. */
export function objectStoreFiles(store: ObjectStore, folder: string): StoredFiles {
  const key = (relativePath: string) => `${folder}/${relativePath.split(/[\\/]+/).join('/')}`;
  return {
    upload: (relativePath, bytes) => store.put(key(relativePath), bytes),
    download: (relativePath) => store.get(key(relativePath)),
    async removeFolder(relativeFolder) {
      for (const name of await store.list(`${key(relativeFolder)}/`)) await store.delete(name);
    },
  };
}
