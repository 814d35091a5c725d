/*
 * Which of Tesseract's fast models are in the models folder, whole and verified: a file counts only
 * at its pinned size and sha256 (4 MB for English, hashed in a few ms, and once per change of the
 * file), so a partial download, a truncated copy or another file under the same name is never read.
 */
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { OCR_MODEL_FILES, ocrModelFileName, ocrModelFolderName, type OcrModelFile } from './ocrModels';

export interface OcrModelsHere {
  /** The folder Tesseract is given. */
  dir: string;
  /** Languages whose fast model is there and matches its pin. */
  languages: string[];
}

// Verified files by path, with the size and time they had then: a changed file is hashed again.
const verified = new Map<string, string>();

async function matchesPin(path: string, file: OcrModelFile): Promise<boolean> {
  let info;
  try {
    info = await stat(path);
  } catch {
    return false;
  }
  if (!info.isFile() || info.size !== file.sizeBytes) return false;
  const stamp = `${info.size}:${info.mtimeMs}:${file.sha256}`;
  if (verified.get(path) === stamp) return true;
  const bytes = await readFile(path).catch(() => null);
  const ok = bytes !== null && createHash('sha256').update(bytes).digest('hex') === file.sha256;
  if (ok) verified.set(path, stamp);
  else verified.delete(path);
  return ok;
}

/** The fast models in `modelsDir` that can be read. */
export async function ocrModelsHere(
  modelsDir: string,
  files: readonly OcrModelFile[] = OCR_MODEL_FILES,
): Promise<OcrModelsHere> {
  const dir = join(modelsDir, ocrModelFolderName());
  const languages: string[] = [];
  for (const file of files)
    if (await matchesPin(join(dir, ocrModelFileName(file.language)), file)) languages.push(file.language);
  return { dir, languages };
}

/** The folder when it serves every language asked, else null (the packaged models read). */
export function fastModelDirFor(here: OcrModelsHere | null, languages: readonly string[]): string | null {
  if (!here || languages.length === 0) return null;
  return languages.every((code) => here.languages.includes(code)) ? here.dir : null;
}
