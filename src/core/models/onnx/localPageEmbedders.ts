import { availableParallelism } from 'node:os';
import type { MemoryEntry } from '../../../shared/domain/models';
import { OnnxPageEmbedder } from './onnxPageEmbedder';
import { BudgetedModels } from '../host/budgetedModels';

export interface LocalPageEmbeddersOptions {
  /** Told what each loaded or unloaded page embedder costs, for the memory budget. */
  onMemoryEntry: (entry: MemoryEntry) => void;
  /** `'auto'` tries CoreML on macOS; `false` keeps to the CPU. */
  accelerator?: 'auto' | false;
  /** CPU threads per run; by default every core but one, at most 8. */
  threads?: number;
  /** A host process idle this long exits (default a minute); the next call loads the model again. */
  idleUnloadMs?: number | undefined;
}

/**
 * The ONNX page embedders Quire runs itself, each in its own host process: reported to the memory
 * budget while loaded, and disposed together.
 */
export class LocalPageEmbedders {
  private readonly embedders: BudgetedModels<OnnxPageEmbedder>;

  constructor(private readonly options: LocalPageEmbeddersOptions) {
    this.embedders = new BudgetedModels(options.onMemoryEntry);
  }

  async load(path: string): Promise<OnnxPageEmbedder> {
    const embedder = await OnnxPageEmbedder.create({
      modelPath: path,
      accelerator: this.options.accelerator ?? 'auto',
      // Leave a core to the app: page embedding runs while the user searches and reads.
      threads: this.options.threads ?? Math.max(1, Math.min(8, availableParallelism() - 1)),
      idleUnloadMs: this.options.idleUnloadMs ?? 60_000,
    });
    this.embedders.add(embedder);
    return embedder;
  }

  async dispose(): Promise<void> {
    await this.embedders.dispose();
  }
}
