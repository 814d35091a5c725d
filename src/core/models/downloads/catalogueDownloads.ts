import { QuireError } from '../../../shared/errors';
import { fileUrl, localFileName, type CatalogueModel } from '../catalogue/catalogue';
import {
  OCR_MODEL_ID,
  OCR_MODEL_LABEL,
  ocrModelFile,
  ocrModelFileName,
  ocrModelFolderName,
  ocrModelUrl,
} from '../catalogue/ocrModels';
import type { FileDownloadRequest } from './downloadManager';

/**
 * The downloads that fetch a catalogue model: its companion files (tokenizer, configs) and its
 * weights and projector, each pinned to its repository and revision, with its published sha256
 * where there is one (else the host's stated hash is used).
 */
export function catalogueDownloads(model: CatalogueModel, hubEndpoint?: string): FileDownloadRequest[] {
  const weights = model.files[0];
  if (!weights) return [];
  const companions = model.companionFiles.map((fileName) => ({
    fileName,
    url: fileUrl({ ...weights, fileName }, hubEndpoint),
    sha256: null,
  }));
  const files = model.files.map((file) => ({
    fileName: file.fileName,
    url: fileUrl(file, hubEndpoint),
    sha256: file.sha256,
    sizeBytes: file.sizeBytes,
  }));
  return [...companions, ...files].map((file) => ({
    ...file,
    id: `${model.id}/${file.fileName}`,
    model: `${model.label}: ${file.fileName}`,
    fileName: localFileName(model, file.fileName),
  }));
}

/**
 * The downloads that fetch Tesseract's fast models for `languages` (those Quire pins; others are
 * left to the packaged models) into their folder of the models folder, each checked against its
 * pinned size and sha256 alone: GitHub states no hash for a raw file.
 */
export function ocrModelDownloads(languages: readonly string[], endpoint?: string): FileDownloadRequest[] {
  return languages.flatMap((language) => {
    const file = ocrModelFile(language);
    if (!file) return [];
    const fileName = ocrModelFileName(language);
    return [
      {
        id: `${OCR_MODEL_ID}/${fileName}`,
        model: `${OCR_MODEL_LABEL}: ${fileName}`,
        url: ocrModelUrl(language, endpoint),
        fileName: `${ocrModelFolderName()}/${fileName}`,
        sha256: file.sha256,
        sizeBytes: file.sizeBytes,
        pinnedOnly: true,
      },
    ];
  });
}

/** Which OCR languages' fast models to fetch, and from where (GitHub's raw host unless a stand-in). */
export interface OcrModelSource {
  languages: () => readonly string[];
  endpoint?: string;
}

/** The downloads a model id names: a catalogue model's files, or the fast OCR models in use. */
export function downloadsFor(
  modelId: string,
  catalogue: readonly CatalogueModel[],
  sources: { hubEndpoint?: string; ocrModels?: OcrModelSource },
): FileDownloadRequest[] {
  const ocr = sources.ocrModels;
  if (modelId === OCR_MODEL_ID) return ocrModelDownloads(ocr?.languages() ?? ['eng'], ocr?.endpoint);
  const model = catalogue.find((candidate) => candidate.id === modelId);
  if (!model) {
    const known = [...catalogue.map((item) => item.id), OCR_MODEL_ID].join(', ');
    throw new QuireError('not_found', `Quire has no download called ${modelId}. Known: ${known}.`);
  }
  return catalogueDownloads(model, sources.hubEndpoint);
}
