import { availableParallelism } from 'node:os';
import type { MemoryEntry } from '../../../shared/domain/models';
import { OnnxTextEmbedder } from './onnxTextEmbedder';

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
  private readonly embedders: OnnxTextEmbedder[] = [];

  constructor(private readonly options: LocalTextEmbeddersOptions) {}

  async load(path: string): Promise<OnnxTextEmbedder> {
    const embedder = await OnnxTextEmbedder.create({
      modelPath: path,
      // Leave a core to the app: chunks are embedded while the user searches and reads.
      threads: this.options.threads ?? Math.max(1, Math.min(8, availableParallelism() - 1)),
      idleUnloadMs: this.options.idleUnloadMs ?? 60_000,
    });
    this.embedders.push(embedder);
    this.options.onMemoryEntry(embedder.memoryEntry());
    embedder.onLoadedChange(() => this.options.onMemoryEntry(embedder.memoryEntry()));
    return embedder;
  }

  async dispose(): Promise<void> {
    await Promise.allSettled(this.embedders.splice(0).map((embedder) => embedder.dispose()));
  }
}
