/*
 * What model servers on this machine hold, in the memory budget's terms: Ollama states each loaded
 * model's size and the part in VRAM (/api/ps); other servers state nothing, so their models appear
 * with an unknown size rather than as 0 B. The models layer says what it holds; the budget only counts.
 */
import type { MemoryEntry } from '../../shared/domain/models';
import type { LoadedServerModel } from './modelService';

export function toMemoryEntry(model: LoadedServerModel): MemoryEntry {
  const known = model.sizeBytes !== null;
  return {
    id: `server:${model.endpoint}:${model.name}`,
    label: `${model.name} (${model.server})`,
    roles: [],
    loaded: true,
    weightsBytes: model.sizeBytes ?? 0,
    kvCacheBytes: 0,
    external: true,
    ...(known ? {} : { sizeKnown: false }),
    ...(model.vramBytes !== null && known
      ? { gpuBytes: Math.min(model.vramBytes, model.sizeBytes ?? 0) }
      : {}),
  };
}

/** The memory entries of every model the configured servers hold now. */
export async function serverMemoryEntries(
  models: { loadedServerModels(signal?: AbortSignal): Promise<LoadedServerModel[]> },
  signal?: AbortSignal,
): Promise<MemoryEntry[]> {
  return (await models.loadedServerModels(signal)).map(toMemoryEntry);
}
