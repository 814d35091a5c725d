import type { MemoryEntry } from '../../../shared/domain/models';

/** What a model run in a host process tells the memory budget, and how it ends. */
export interface BudgetedModel {
  memoryEntry(): MemoryEntry;
  onLoadedChange(listener: (loaded: boolean) => void): () => void;
  dispose(): Promise<void>;
}

/**
 * The models one runtime has loaded in host processes: each reported to the memory budget when added
 * and again whenever it loads or unloads, and all disposed together.
 */
export class BudgetedModels<Model extends BudgetedModel> {
  private readonly models: Model[] = [];

  constructor(private readonly onMemoryEntry: (entry: MemoryEntry) => void) {}

  add(model: Model): Model {
    this.models.push(model);
    this.onMemoryEntry(model.memoryEntry());
    model.onLoadedChange(() => this.onMemoryEntry(model.memoryEntry()));
    return model;
  }

  async dispose(): Promise<void> {
    await Promise.allSettled(this.models.splice(0).map((model) => model.dispose()));
  }
}
