/*
 * Tesseract's fast models as a row of the setup proposal: one file per OCR language in use that
 * Quire pins, already there or to download. It has no setting to save: OCR finds the models in the
 * models folder, and without them reads with the model packaged with Quire.
 */
import type { RoleProposal } from '../../../shared/domain/models';
import { TESSERACT_LANGUAGES } from '../../documents/ocr/tesseractEngine';
import type { OcrModelsHere } from './ocrModelFolder';
import {
  OCR_MODEL_ID,
  OCR_MODEL_LABEL,
  OCR_MODEL_LICENCE,
  OCR_MODEL_REPOSITORY,
  OCR_MODEL_REVISION,
  ocrModelFile,
  ocrModelFileName,
  ocrModelUrl,
  type OcrModelFile,
} from './ocrModels';

/** The proposal for `languages` (the OCR settings'), or null when Quire pins none of them. */
export function ocrModelProposal(
  languages: readonly string[],
  here: OcrModelsHere,
  endpoint?: string,
): RoleProposal | null {
  const files = languages.map(ocrModelFile).filter((file): file is OcrModelFile => file !== undefined);
  if (files.length === 0) return null;
  const proposed = files.map((file) => ({
    fileName: ocrModelFileName(file.language),
    repository: OCR_MODEL_REPOSITORY,
    revision: OCR_MODEL_REVISION,
    url: ocrModelUrl(file.language, endpoint),
    sizeBytes: file.sizeBytes,
    sizeExact: true,
    sha256: file.sha256,
    present: here.languages.includes(file.language),
  }));
  const missing = proposed.filter((file) => !file.present);
  const names = files.map((file) => TESSERACT_LANGUAGES[file.language] ?? file.language).join(', ');
  return {
    role: 'ocr',
    modelId: OCR_MODEL_ID,
    label: `${OCR_MODEL_LABEL} (${names})`,
    source: missing.length === 0 ? 'present' : 'download',
    ollamaModel: null,
    server: null,
    files: proposed,
    companionFiles: [],
    downloadBytes: missing.reduce((sum, file) => sum + file.sizeBytes, 0),
    // Counted with the document workers that run OCR, not as a model of its own.
    memoryBytes: null,
    licence: OCR_MODEL_LICENCE,
    quality: "word error rate 0.041 at 1.04-1.26x the tesseract CLI's speed on Quire's OCR bench",
    reason:
      "reads scanned pages faster than the model packaged with Quire (which runs at 0.70-0.86x the tesseract CLI's speed), as accurately; without it OCR uses the packaged model",
    runtimeReady: true,
  };
}
