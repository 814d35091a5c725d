import { availableParallelism } from 'node:os';
import type { MemoryEntry } from '../../../shared/domain/models';
import { OnnxTextEmbedder } from './onnxTextEmbedder';
import { BudgetedModels } from '../host/budgetedModels';

export interface LocalTextEmbeddersOptions {
  /** Told what each loaded or unloaded text embedder costs, for the memory budget. */
  onMemoryEntry: (entry: MemoryEntry) => void;
  /** CPU threads per run; by default every core but one, at most 8. */
  threads?: number;
  /** A host process idle this long exits (default a minute); the next call loads the model again. */
  idleUnloadMs?: number | undefined;
}

/**
 * The ONNX text embedders Quire runs itself, each in its own host process: reported to the memory
 * budget while loaded, and disposed together.
 */
export class LocalTextEmbedders {
  private readonly embedders: BudgetedModels<OnnxTextEmbedder>;

  constructor(private readonly options: LocalTextEmbeddersOptions) {
    this.embedders = new BudgetedModels(options.onMemoryEntry);
  }

  async load(path: string): Promise<OnnxTextEmbedder> {
    const embedder = await OnnxTextEmbedder.create({
      modelPath: path,
      // Leave a core to the app: chunks are embedded while the user searches and reads.
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
