/*
 * What an MCP client names (a path, a folder, a collection) turned into what the core reads, through
 * the library's path policy: a path whose real location is outside every library root is refused.
 */
import { resolve } from 'node:path';
import type { DocumentInfo } from '../../shared/domain/library';
import type { Scope } from '../../shared/domain/scope';
import { QuireError } from '../../shared/errors';
import { resolveInLibrary } from '../agent/tools/libraryPaths';
import type { Core } from '../createCore';
import { realRoots } from '../library/pathPolicy';

export type LibraryCore = Pick<Core, 'library' | 'index' | 'ingestion' | 'pageImages' | 'dispatch'>;

/** The real path of a file or folder inside the library; throws `outside_library` otherwise. */
export async function pathInLibrary(core: LibraryCore, path: string): Promise<string> {
  const roots = await realRoots(core.library.rootPaths());
  if (roots.length === 0) throw new QuireError('outside_library', 'The library has no folders yet.');
  return resolveInLibrary(path, roots);
}

/** The library's document at a path (absolute, or relative to a library folder). */
export async function documentAt(core: LibraryCore, path: string): Promise<DocumentInfo> {
  const real = await pathInLibrary(core, path);
  const named = new Set([real, resolve(path)]);
  const doc = core.library.snapshot().documents.find((d) => named.has(d.path));
  if (!doc) throw new QuireError('not_found', `${path} is not a document of the library.`);
  return doc;
}

/** The scope of `in` paths and collections; null for the whole library. */
export async function scopeOf(
  core: LibraryCore,
  paths: readonly string[] | undefined,
  collections: readonly string[] | undefined,
): Promise<Scope | null> {
  const scope: Scope = {};
  if (paths?.length) scope.paths = await Promise.all(paths.map((p) => pathInLibrary(core, p)));
  if (collections?.length) scope.collections = [...collections];
  return scope.paths || scope.collections ? scope : null;
}
