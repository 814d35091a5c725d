/*
 * What an ONNX sentence embedder is on disk: a folder with `model.onnx` and `tokenizer.json`, and the
 * family it belongs to, which decides how its output is pooled and which prefix a query or a
 * passage gets (each as its model card states). The family is named by a `quire-embedder.json`
 * beside the model, else read from the folder's or the file's name.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { QuireError } from '../../../shared/errors';

export type TextEmbedderFamily = 'bge' | 'e5' | 'minilm';

export interface TextEmbedderRecipe {
  family: TextEmbedderFamily;
  label: string;
  /** `cls`: the first token's vector; `mean`: the average over real (unmasked) tokens. */
  pooling: 'cls' | 'mean';
  queryPrefix: string;
  passagePrefix: string;
  /** Longest input in tokens, special tokens included; longer texts are cut. */
  maxTokens: number;
}

export const RECIPES: Record<TextEmbedderFamily, TextEmbedderRecipe> = {
  // BGE v1.5's card makes its query instruction optional. Measured with the int8 bge-small on 16 dev
  // questions, hybrid search (the default) did as well or better without it on every figure (hit@5
  // 0.438 against 0.375, MRR 0.294 against 0.278), and one of four plain paraphrases ranked second with it.
  bge: {
    family: 'bge',
    label: 'BGE',
    pooling: 'cls',
    queryPrefix: '',
    passagePrefix: '',
    maxTokens: 512,
  },
  e5: {
    family: 'e5',
    label: 'E5',
    pooling: 'mean',
    queryPrefix: 'query: ',
    passagePrefix: 'passage: ',
    maxTokens: 512,
  },
  // sentence-transformers runs all-MiniLM-L6-v2 with a 256-token limit (its max_seq_length).
  minilm: {
    family: 'minilm',
    label: 'MiniLM',
    pooling: 'mean',
    queryPrefix: '',
    passagePrefix: '',
    maxTokens: 256,
  },
};

/** The file beside the model that names its family: `{"family": "bge" | "e5" | "minilm"}`. */
export const FAMILY_FILE = 'quire-embedder.json';

export interface TextEmbedderFiles {
  modelPath: string;
  tokenizerPath: string;
  recipe: TextEmbedderRecipe;
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

/** The model file of a folder: `model.onnx`, else the folder's only `.onnx` file. */
async function modelIn(folder: string): Promise<string> {
  const named = join(folder, 'model.onnx');
  if (await exists(named)) return named;
  const onnx = (await readdir(folder)).filter((name) => /\.onnx$/i.test(name));
  if (onnx.length === 1) return join(folder, onnx[0]!);
  throw new QuireError(
    'not_found',
    `The text embedder folder ${folder} has no model.onnx${onnx.length > 1 ? ` (it holds several .onnx files: ${onnx.join(', ')})` : ''}.`,
    { modelPath: folder },
  );
}

/** The family a name says, e.g. `bge-small-en-v1.5`, `e5-small-v2`, `all-MiniLM-L6-v2`. */
export function familyFromName(name: string): TextEmbedderFamily | null {
  if (/minilm/i.test(name)) return 'minilm';
  if (/bge/i.test(name)) return 'bge';
  if (/e5/i.test(name)) return 'e5';
  return null;
}

async function familyFromFile(folder: string): Promise<TextEmbedderFamily | null> {
  const path = join(folder, FAMILY_FILE);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    return null;
  }
  let family: unknown;
  try {
    family = (JSON.parse(text) as { family?: unknown }).family;
  } catch {
    throw new QuireError('model_failed', `${path} is not valid JSON.`, { modelPath: path });
  }
  if (typeof family === 'string' && family.toLowerCase() in RECIPES)
    return family.toLowerCase() as TextEmbedderFamily;
  throw new QuireError(
    'model_failed',
    `${path} names the family ${JSON.stringify(family)}; Quire knows ${Object.keys(RECIPES).join(', ')}.`,
    { modelPath: path },
  );
}

/**
 * Finds the model, its tokenizer and its family from a folder (or the model file in it). Rejects
 * with a sentence naming what is missing, or saying the family is unknown: pooling or prefixing a
 * model the wrong way gives vectors that look fine and find the wrong passages.
 */
export async function readTextEmbedderFiles(path: string): Promise<TextEmbedderFiles> {
  const folderGiven = await isDirectory(path);
  if (!folderGiven && !(await exists(path))) {
    throw new QuireError('not_found', `The text embedder ${path} does not exist.`, { modelPath: path });
  }
  const folder = folderGiven ? path : dirname(path);
  const modelPath = folderGiven ? await modelIn(folder) : path;
  const tokenizerPath = join(folder, 'tokenizer.json');
  if (!(await exists(tokenizerPath))) {
    throw new QuireError(
      'not_found',
      `The text embedder ${path} has no tokenizer: put its tokenizer.json beside ${basename(modelPath)}.`,
      { modelPath: path },
    );
  }
  const family =
    (await familyFromFile(folder)) ?? familyFromName(basename(folder)) ?? familyFromName(basename(modelPath));
  if (family === null) {
    throw new QuireError(
      'unsupported',
      `Quire cannot tell which kind of text embedder ${path} is, so it cannot know how to pool its output or prefix queries. ` +
        `It runs BGE, E5 and MiniLM sentence embedders: name the folder after the model (e.g. bge-small-en-v1.5), ` +
        `or put a ${FAMILY_FILE} beside it such as {"family": "bge"}.`,
      { modelPath: path },
    );
  }
  return { modelPath, tokenizerPath, recipe: RECIPES[family] };
}
