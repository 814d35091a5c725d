/*
 * What an ONNX page embedder is made of besides its graph: the tokenizer and the image processor's
 * settings. A published export keeps them as JSON files beside `model.onnx` (tokenizer.json,
 * tokenizer_config.json, preprocessor_config.json, processor_config.json, config.json); a model the
 * project writes for tests carries them inside the file as metadata. Files beside the model win.
 */
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { QuireError } from '../../../shared/errors';
import { readOnnxMetadata } from './onnxMetadata';

/** The metadata key under which a self-contained model keeps its files, as one JSON object. */
export const EMBEDDED_FILES_KEY = 'quire.page_embedder.files';

export type JsonObject = Record<string, unknown>;

export interface PageEmbedderFiles {
  modelPath: string;
  /** tokenizer.json (Hugging Face tokenizers format). */
  tokenizer: JsonObject;
  tokenizerConfig: JsonObject;
  /** preprocessor_config.json: the Idefics3 image processor's settings. */
  preprocessor: JsonObject;
  /** processor_config.json: tokens per image tile (`image_seq_len`). */
  processor: JsonObject;
  /** config.json: the vision tower's input size and the padding token. */
  config: JsonObject;
}

const SIDE_FILES = {
  tokenizer: 'tokenizer.json',
  tokenizerConfig: 'tokenizer_config.json',
  preprocessor: 'preprocessor_config.json',
  processor: 'processor_config.json',
  config: 'config.json',
} as const;

type Part = keyof typeof SIDE_FILES;

async function readJson(path: string): Promise<JsonObject | null> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    return null;
  }
  try {
    const value = JSON.parse(text) as unknown;
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as JsonObject;
  } catch {
    // reported below as unreadable
  }
  throw new QuireError('model_failed', `${path} is not a JSON object.`, { modelPath: path });
}

/**
 * Reads the files a page embedder needs. Rejects with a message naming what is missing when neither
 * the folder nor the model itself holds the tokenizer; the processor files fall back to the model's
 * published defaults.
 */
export async function readPageEmbedderFiles(modelPath: string): Promise<PageEmbedderFiles> {
  const folder = dirname(modelPath);
  const embedded = await readOnnxMetadata(modelPath);
  let inside: Partial<Record<Part, JsonObject>> = {};
  const packed = embedded.get(EMBEDDED_FILES_KEY);
  if (packed !== undefined) {
    try {
      inside = JSON.parse(packed) as Partial<Record<Part, JsonObject>>;
    } catch {
      throw new QuireError('model_failed', `${modelPath} holds unreadable page embedder settings.`);
    }
  }
  const parts = {} as Record<Part, JsonObject | null>;
  for (const part of Object.keys(SIDE_FILES) as Part[]) {
    parts[part] = (await readJson(join(folder, SIDE_FILES[part]))) ?? inside[part] ?? null;
  }
  if (!parts.tokenizer) {
    throw new QuireError(
      'model_failed',
      `The page embedder ${modelPath} has no tokenizer: put its tokenizer.json (and the other files of the export) beside it.`,
      { modelPath },
    );
  }
  return {
    modelPath,
    tokenizer: parts.tokenizer,
    tokenizerConfig: parts.tokenizerConfig ?? {},
    preprocessor: parts.preprocessor ?? {},
    processor: parts.processor ?? {},
    config: parts.config ?? {},
  };
}
