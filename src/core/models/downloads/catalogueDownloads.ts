import { fileUrl, localFileName, type CatalogueModel } from '../catalogue/catalogue';
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
