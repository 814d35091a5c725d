/*
 * What the models folder holds: whole catalogue files (by their path inside the folder) and GGUF
 * files the user put there. Roles resolution and the setup proposal both read it through
 * `localModelFor`, so a file that counts for one counts for the other. Every GGUF's header is checked
 * while scanning (ggufHeader.ts), so nothing else reads one that lies about its size.
 */
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { ggufFileProblem } from '../ggufHeader';
import {
  CATALOGUE,
  candidatesFor,
  localFileName,
  RUNTIMES_IN_THIS_BUILD,
  type CatalogueModel,
  type CatalogueRole,
} from './catalogue';

export interface ModelsFolder {
  dir: string;
  /** Catalogue files on disk, whole (their published size, where it is exact). */
  presentFiles: ReadonlySet<string>;
  /** Other `.gguf` files at the top of the folder whose headers pass, by name. */
  otherGgufs: readonly string[];
  /** `.gguf` files in the folder (catalogue ones too) that cannot be used, by path, with the reason in one sentence. */
  unusable: ReadonlyMap<string, string>;
}

export interface LocalModel {
  /** Absolute path of the weights. */
  path: string;
  /** Absolute path of the vision projector, for a vision model. */
  projectorPath: string | null;
  catalogue: CatalogueModel | null;
  /** Whether this build can run it in-process. */
  runtimeReady: boolean;
}

/** The models folder of a data folder: downloads land there, and a user's own GGUF files go there. */
export function modelsDirOf(dataDir: string): string {
  return join(dataDir, 'models');
}

async function sizeOf(path: string): Promise<number | null> {
  try {
    const info = await stat(path);
    return info.isFile() ? info.size : null;
  } catch {
    return null;
  }
}

export async function scanModelsFolder(
  dir: string,
  catalogue: readonly CatalogueModel[] = CATALOGUE,
): Promise<ModelsFolder> {
  const presentFiles = new Set<string>();
  const known = new Set<string>();
  for (const model of catalogue) {
    for (const file of model.files) {
      const name = localFileName(model, file.fileName);
      known.add(name);
      const size = await sizeOf(join(dir, name));
      if (size !== null && (!file.sizeExact || size === file.sizeBytes)) presentFiles.add(name);
    }
  }
  let names: string[] = [];
  try {
    names = await readdir(dir);
  } catch {
    // No models folder yet: nothing is there.
  }
  const unusable = new Map<string, string>();
  const ggufs = names.filter((name) => /\.gguf$/i.test(name)).sort();
  for (const name of ggufs) {
    const path = join(dir, name);
    if ((await sizeOf(path)) === null) continue;
    const problem = await ggufFileProblem(path);
    if (problem) unusable.set(path, `${problem}.`);
  }
  const otherGgufs = ggufs.filter((name) => !known.has(name) && !unusable.has(join(dir, name)));
  return { dir, presentFiles, otherGgufs, unusable };
}

/** A GGUF the user put in the models folder that serves `role`: embedding files by name, projectors never. */
export function placedGgufFor(role: CatalogueRole, otherGgufs: readonly string[]): string | null {
  const isEmbedding = (name: string) => /embed/i.test(name);
  const isProjector = (name: string) => /mmproj/i.test(name);
  const isReranker = (name: string) => /rerank/i.test(name);
  if (role === 'embed') return otherGgufs.find((name) => isEmbedding(name) && !isReranker(name)) ?? null;
  if (role === 'rerank') return otherGgufs.find(isReranker) ?? null;
  if (role === 'decide' || role === 'answer')
    return otherGgufs.find((name) => !isEmbedding(name) && !isProjector(name) && !isReranker(name)) ?? null;
  return null;
}

/** The model in the folder that `role` uses: the strongest whole catalogue model, else a placed GGUF. */
export function localModelFor(
  role: CatalogueRole,
  folder: ModelsFolder,
  catalogue: readonly CatalogueModel[] = CATALOGUE,
): LocalModel | null {
  for (const model of candidatesFor(role, catalogue)) {
    const names = model.files.map((file) => localFileName(model, file.fileName));
    if (!names.every((name) => folder.presentFiles.has(name))) continue;
    const projector = model.files.find((file) => file.kind === 'projector');
    const weights = model.files.find((file) => file.kind === 'weights')!;
    return {
      path: join(folder.dir, localFileName(model, weights.fileName)),
      projectorPath: projector ? join(folder.dir, localFileName(model, projector.fileName)) : null,
      catalogue: model,
      runtimeReady: RUNTIMES_IN_THIS_BUILD.has(model.runtime),
    };
  }
  const placed = placedGgufFor(role, folder.otherGgufs);
  if (!placed) return null;
  return { path: join(folder.dir, placed), projectorPath: null, catalogue: null, runtimeReady: true };
}
