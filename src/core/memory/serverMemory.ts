/*
 * What model servers on this machine hold in memory, kept in the budget beside Quire's own models.
 * The providers say what they hold, already as budget entries; this only reads them now and then.
 */
import type { MemoryEntry } from '../../shared/domain/models';

export interface ServerMemorySource {
  heldMemory(signal?: AbortSignal): Promise<MemoryEntry[]>;
}

export interface ExternalEntriesSink {
  replaceExternalEntries(entries: MemoryEntry[]): void;
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
      .heldMemory()
      .then((entries) => this.budget.replaceExternalEntries(entries))
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
