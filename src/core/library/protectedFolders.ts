/*
 * Folders Quire refuses to add to the library: its own data folder (indexing the index would loop, and
 * the library must never expose Quire's secrets), any folder holding it or inside it, the file system's
 * root, and system folders whose files are not documents but devices, processes and configuration.
 */
import { realpath, stat } from 'node:fs/promises';
import { QuireError } from '../../shared/errors';
import { isInside } from '../common/paths';

/** Folders of the operating system, compared after symlinks are resolved (macOS's /etc is /private/etc). */
const SYSTEM_FOLDERS = ['/etc', '/proc', '/sys', '/dev', '/System', '/private/etc', '/private/var/db'];
const WINDOWS_SYSTEM_FOLDER = /^[a-z]:\\windows(\\|$)/i;

export type RefusalReason = 'data_folder' | 'system_folder' | 'file_system_root' | 'special_file';

function refuse(reason: RefusalReason, message: string, folder: string): QuireError {
  return new QuireError('forbidden', message, { reason, folder });
}

/**
 * Throws `forbidden` (details.reason says which rule) when `folder` may not become a library root.
 * Both paths are compared as real paths, so a link to a refused folder is refused too.
 */
export async function refuseProtectedFolder(
  folder: string,
  dataDir: string,
  /** Folders inside the data folder that hold only documents (web downloads); allowed as they are. */
  documentFolders: readonly string[] = [],
): Promise<void> {
  const real = await realpath(folder).catch(() => folder);
  const info = await stat(real).catch(() => null);
  if (info && !info.isDirectory() && !info.isFile()) {
    throw refuse('special_file', `${folder} is a device or special file, not a folder of documents.`, folder);
  }
  if (real === '/' || /^[a-z]:\\?$/i.test(real)) {
    throw refuse(
      'file_system_root',
      `${folder} is the whole disk. Add the folders that hold your documents instead.`,
      folder,
    );
  }
  const system = SYSTEM_FOLDERS.find((system) => isInside(real, system));
  if (system || WINDOWS_SYSTEM_FOLDER.test(real)) {
    throw refuse(
      'system_folder',
      `${folder} is a system folder (${system ?? real}); Quire only reads folders of documents.`,
      folder,
    );
  }
  const data = await realpath(dataDir).catch(() => dataDir);
  const allowed = await Promise.all(documentFolders.map((path) => realpath(path).catch(() => path)));
  if (isInside(real, data) && !allowed.includes(real)) {
    throw refuse('data_folder', `${folder} is inside Quire's own data folder (${dataDir}).`, folder);
  }
  if (isInside(data, real)) {
    throw refuse(
      'data_folder',
      `${folder} contains Quire's own data folder (${dataDir}). Add the folders inside it that hold your documents instead.`,
      folder,
    );
  }
}
