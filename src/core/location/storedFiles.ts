import type { StoredFiles } from '../common/storedFiles';
import type { ObjectStore } from './objectStore';

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
