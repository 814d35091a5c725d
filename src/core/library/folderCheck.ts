import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { isAbsolute, join, resolve, sep } from 'node:path';
import { isInside } from '../common/paths';
import { QuireError } from '../../shared/errors';
import { refuseProtectedFolder } from './protectedFolders';

export interface FolderRules {
  dataDir: string;
  documentFoldersInDataDir?: string[];
}

/**
 * `~` and a leading `~/` mean the home folder, as in a shell: a path typed in the app's field or quoted
 * on the command line reaches Quire unexpanded. `~user` is left alone (and refused as not absolute).
 */
export function expandHome(path: string, home: string = homedir()): string {
  if (path === '~') return home;
  // On Windows `~\x` too; elsewhere a backslash is part of a name.
  const rest = path.startsWith('~/') || (sep === '\\' && path.startsWith('~\\')) ? path.slice(2) : null;
  return rest === null ? path : join(home, rest);
}

/** Checks that `path` is an existing, readable folder Quire may read and returns it normalised. */
export async function checkFolder(
  path: string,
  { dataDir, documentFoldersInDataDir = [] }: FolderRules,
): Promise<string> {
  const expanded = expandHome(path);
  if (!isAbsolute(expanded))
    throw new QuireError('invalid_input', `Give the folder's full path, not "${path}".`);
  const folder = resolve(expanded);
  await refuseProtectedFolder(folder, dataDir, documentFoldersInDataDir);
  const info = await stat(folder).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT' || error.code === 'ENOTDIR') {
      throw new QuireError('not_found', `The folder ${folder} does not exist.`);
    }
    if (error.code === 'EACCES' || error.code === 'EPERM') {
      throw new QuireError('not_readable', `Quire is not allowed to read ${folder}.`);
    }
    throw new QuireError('not_readable', `${folder} cannot be read: ${error.message}`);
  });
  if (!info.isDirectory()) throw new QuireError('not_a_folder', `${folder} is a file, not a folder.`);
  try {
    await access(folder, constants.R_OK | constants.X_OK);
  } catch {
    throw new QuireError('not_readable', `Quire is not allowed to read ${folder}.`);
  }
  return folder;
}

/** Refuses a folder that is, holds or lies inside one of the library's folders. */
export function refuseOverlap(folder: string, rootPaths: readonly string[]): void {
  for (const root of rootPaths) {
    if (root === folder) throw new QuireError('already_exists', `${folder} is already in the library.`);
    if (isInside(folder, root)) {
      throw new QuireError('already_exists', `${folder} is already in the library, inside ${root}.`);
    }
    if (isInside(root, folder)) {
      throw new QuireError(
        'already_exists',
        `${root} is already in the library: remove it first to add the folder that contains it.`,
      );
    }
  }
}
