/*
 * What model servers on this machine hold in memory, kept in the budget beside Quire's own models:
 * Ollama states each loaded model's size and the part in VRAM (/api/ps); other servers state
 * nothing, so their models appear with an unknown size rather than as 0 B.
 */
import type { MemoryEntry } from '../../shared/domain/models';
import type { LoadedServerModel } from '../models/modelService';

export interface ServerMemorySource {
  loadedServerModels(signal?: AbortSignal): Promise<LoadedServerModel[]>;
}

export interface ExternalEntriesSink {
  replaceExternalEntries(entries: MemoryEntry[]): void;
}

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

/** Reads the servers now and whenever asked; `watch` keeps reading, since servers load models on demand. */
export class ServerMemoryTracker {
  private timer: ReturnType<typeof setInterval> | null = null;
  private reading: Promise<void> | null = null;

  constructor(
    private readonly source: ServerMemorySource,
    private readonly budget: ExternalEntriesSink,
  ) {}

  update(): Promise<void> {
    this.reading ??= this.source
      .loadedServerModels()
      .then((models) => this.budget.replaceExternalEntries(models.map(toMemoryEntry)))
      .catch(() => undefined)
      .finally(() => {
        this.reading = null;
      });
    return this.reading;
  }

  watch(intervalMs = 15_000): void {
    if (this.timer !== null) return;
    this.timer = setInterval(() => void this.update(), intervalMs);
    this.timer.unref();
  }

  async dispose(): Promise<void> {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
    await this.reading;
  }
}
