import { availableParallelism } from 'node:os';
import type { MemoryEntry } from '../../../shared/domain/models';
import type { InProcessModel } from '../inProcessInstances';
import { createLlamaProvider, type LlamaProvider } from './llamaProvider';
import type { LlamaGpuSetting } from './protocol';
import { BudgetedModels } from '../host/budgetedModels';

export interface LocalModelsOptions {
  /** The context size a GGUF may load with; rejects when it does not fit in memory (the memory budget decides). */
  contextSizeFor: (path: string) => Promise<number>;
  /** Told what each loaded or unloaded model costs, for the memory budget. */
  onMemoryEntry: (entry: MemoryEntry) => void;
  /** GPU use; 'auto' picks Metal/CUDA/Vulkan where present. */
  gpu?: LlamaGpuSetting;
  /** CPU threads; by default every core but one, at most 8. */
  threads?: number;
}

/**
 * The GGUF models Quire runs itself (each in its own host process): planned against the memory
 * budget before loading, reported to it while loaded, and disposed together.
 */
export class LocalModels {
  private readonly providers: BudgetedModels<LlamaProvider>;

  constructor(private readonly options: LocalModelsOptions) {
    this.providers = new BudgetedModels(options.onMemoryEntry);
  }

  async load(path: string): Promise<InProcessModel> {
    const contextSize = await this.options.contextSizeFor(path);
    const provider = await createLlamaProvider({
      modelPath: path,
      contextSize,
      gpu: this.options.gpu ?? 'auto',
      // Leave a core to the app: with every core busy, generation stalls whenever the UI or indexing runs.
      threads: this.options.threads ?? Math.max(1, Math.min(8, availableParallelism() - 1)),
    });
    this.providers.add(provider);
    return { chat: provider, embedder: provider };
  }

  async dispose(): Promise<void> {
    await this.providers.dispose();
  }
}
