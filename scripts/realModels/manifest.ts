import { homedir } from 'node:os';
import { join } from 'node:path';

/*
 * The cache's manifest.json: what `npm run models:fetch-real` left and where. Kept apart from the
 * fetching code so tests can read it without loading any of that.
 */

export interface ManifestEntry {
  name: string;
  role: 'embed' | 'chat';
  format: 'onnx' | 'gguf';
  /** The GGUF file, or the folder holding an embedder's model.onnx and tokenizer.json. */
  path: string;
  /** Of the GGUF file, or of model.onnx. */
  bytes: number;
  sha256: string;
  parameters: number;
}

export const MANIFEST_FILE = 'manifest.json';
export const ONNX_MODEL_FILE = 'model.onnx';
export const ONNX_TOKENIZER_FILE = 'tokenizer.json';

/** Where real weights are cached: outside the repository, kept between runs. */
export function realModelsDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.QUIRE_REAL_MODELS || join(homedir(), '.cache', 'quire-real-models');
}
