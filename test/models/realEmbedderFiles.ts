import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/*
 * The real text embedders the fetch script put on this machine, read from its manifest
 * (`$QUIRE_REAL_MODELS/manifest.json`, else `~/.cache/quire-real-models/manifest.json`). Tests that
 * need them skip with one line when they are absent, except in CI, where their absence fails.
 */

export interface RealModelEntry {
  name: string;
  role: string;
  format: string;
  /** For ONNX: the folder holding model.onnx and tokenizer.json. */
  path: string;
  bytes: number;
  sha256: string;
  parameters: number;
}

export const REAL_WEIGHTS_MISSING = 'real weights not fetched: run `npm run models:fetch-real`';

export const inCi = process.env.CI === 'true';

function manifestPath(): string {
  const root = process.env.QUIRE_REAL_MODELS ?? join(homedir(), '.cache', 'quire-real-models');
  return join(root, 'manifest.json');
}

function readEntries(): RealModelEntry[] {
  const path = manifestPath();
  if (!existsSync(path)) return [];
  return JSON.parse(readFileSync(path, 'utf8')) as RealModelEntry[];
}

/** The named ONNX embedders whose folders hold both files, by name; the missing ones are left out. */
export function realEmbedders(names: readonly string[]): Map<string, RealModelEntry> {
  const found = new Map<string, RealModelEntry>();
  for (const entry of readEntries()) {
    if (!names.includes(entry.name) || entry.format !== 'onnx') continue;
    if (existsSync(join(entry.path, 'model.onnx')) && existsSync(join(entry.path, 'tokenizer.json')))
      found.set(entry.name, entry);
  }
  return found;
}
