import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import {
  MANIFEST_FILE,
  ONNX_MODEL_FILE,
  ONNX_TOKENIZER_FILE,
  realModelsDir,
  type ManifestEntry,
} from '../../scripts/realModels/manifest';

/*
 * Real model weights for tests, as `npm run models:fetch-real` left them in its cache. Only sizes are
 * checked here (the fetch checked every sha256; hashing a gigabyte per test file would be slow).
 * Without them a test skips with one reason, except in CI, where it must run and fail instead:
 *
 *   describe.skipIf(realModelsSkipReason() !== null)(`... ${realModelsSkipReason() ?? ''}`, () => {
 *     const { embedders } = requireRealModels();
 */

export interface RealEmbedder extends ManifestEntry {
  role: 'embed';
  format: 'onnx';
  modelPath: string;
  tokenizerPath: string;
}

export interface RealChat extends ManifestEntry {
  role: 'chat';
  format: 'gguf';
}

export interface RealModels {
  /** The cache folder the manifest was read from. */
  dir: string;
  embedders: RealEmbedder[];
  chats: RealChat[];
}

export const FETCH_HINT = 'run `npm run models:fetch-real`';
export const REAL_WEIGHTS_MISSING = `real weights not fetched: ${FETCH_HINT}`;
/** In CI the weights are fetched first, so a test that needs them runs (and fails) rather than skips. */
export const inCi = process.env.CI === 'true';

function sizeOf(path: string): number | undefined {
  try {
    const info = statSync(path);
    return info.isFile() ? info.size : undefined;
  } catch {
    return undefined;
  }
}

/** The usable models in `dir`'s manifest (files present, sizes as recorded), or why there are none. */
export function readRealModels(dir: string = realModelsDir()): RealModels | string {
  const manifestPath = join(dir, MANIFEST_FILE);
  let entries: ManifestEntry[];
  try {
    entries = JSON.parse(readFileSync(manifestPath, 'utf8')) as ManifestEntry[];
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
    return missing
      ? `real weights not fetched: ${FETCH_HINT}`
      : `real weights manifest ${manifestPath} is unreadable: ${FETCH_HINT}`;
  }
  if (!Array.isArray(entries)) return `real weights manifest ${manifestPath} is not a list: ${FETCH_HINT}`;
  const models: RealModels = { dir, embedders: [], chats: [] };
  for (const entry of entries) {
    if (entry.role === 'embed' && entry.format === 'onnx') {
      const modelPath = join(entry.path, ONNX_MODEL_FILE);
      const tokenizerPath = join(entry.path, ONNX_TOKENIZER_FILE);
      if (sizeOf(modelPath) === entry.bytes && sizeOf(tokenizerPath) !== undefined) {
        models.embedders.push({ ...entry, role: 'embed', format: 'onnx', modelPath, tokenizerPath });
      }
    } else if (entry.role === 'chat' && entry.format === 'gguf' && sizeOf(entry.path) === entry.bytes) {
      models.chats.push({ ...entry, role: 'chat', format: 'gguf' });
    }
  }
  if (models.embedders.length + models.chats.length === 0) {
    return `real weights in ${dir} are missing or changed since they were fetched: ${FETCH_HINT}`;
  }
  return models;
}

/**
 * Why real-weight tests skip here, or null when they run: the weights are there, or this is CI,
 * where their absence must fail the run (through `requireRealModels`) rather than pass as skipped.
 */
export function realModelsSkipReason(
  dir: string = realModelsDir(),
  env: NodeJS.ProcessEnv = process.env,
): string | null {
  if (env.CI === 'true') return null;
  const models = readRealModels(dir);
  return typeof models === 'string' ? models : null;
}

/** The real models; throws with the reason when they are not there (a test fails, in CI too). */
export function requireRealModels(dir: string = realModelsDir()): RealModels {
  const models = readRealModels(dir);
  if (typeof models === 'string') throw new Error(models);
  return models;
}

/** One named real model; throws when the cache lacks it. */
export function requireRealModel<Role extends 'embed' | 'chat'>(
  role: Role,
  name: string,
  dir: string = realModelsDir(),
): Role extends 'embed' ? RealEmbedder : RealChat {
  const models = requireRealModels(dir);
  const found = (role === 'embed' ? models.embedders : models.chats).find((entry) => entry.name === name);
  if (!found) throw new Error(`real model ${name} is not in ${dir}: ${FETCH_HINT}`);
  return found as Role extends 'embed' ? RealEmbedder : RealChat;
}

/** The named real embedders the cache holds, by name; the missing ones are left out. */
export function realEmbedders(
  names: readonly string[],
  dir: string = realModelsDir(),
): Map<string, RealEmbedder> {
  const models = readRealModels(dir);
  const present = typeof models === 'string' ? [] : models.embedders;
  return new Map(present.filter((entry) => names.includes(entry.name)).map((entry) => [entry.name, entry]));
}
