/*
 * What Quire offers to download when no server provides a model: the in-process models of the one
 * catalogue (llama/catalogue.ts), as download requests. Sizes serve the free-space check.
 */
import type { ModelRole } from '../../../shared/domain/models';
import { CATALOGUE, modelRoles, type CatalogueModel } from '../llama/catalogue';

export interface CatalogueEntry {
  id: string;
  label: string;
  url: string;
  fileName: string;
  sizeBytes: number;
  sha256?: string;
  roles: ModelRole[];
}

export function toDownload(model: CatalogueModel): CatalogueEntry {
  return {
    id: model.id,
    label: `${model.label} (${model.quant})`,
    url: model.uri,
    fileName: `${model.id}-${model.quant}.gguf`,
    sizeBytes: Math.round(model.weightsBytes),
    roles: modelRoles(model),
  };
}

export const MODEL_CATALOGUE: readonly CatalogueEntry[] = CATALOGUE.filter((model) => model.inProcess).map(
  toDownload,
);
