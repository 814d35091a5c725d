import { availableParallelism } from 'node:os';
import type { MemoryEntry } from '../../../shared/domain/models';
import { QuireError } from '../../../shared/errors';
import type { MemoryBudgetService } from '../../memory/memoryBudgetService';
import { LocalVisionModel, type LocalVisionModelOptions } from './localVisionModel';
import { checkVisionFiles, type VisionFiles } from './visionFiles';
import { BudgetedModels } from '../host/budgetedModels';

/** Page images take a few hundred to a few thousand tokens each; the answer needs room after them. */
const DEFAULT_CONTEXT_SIZE = 8192;
const MIN_CONTEXT_SIZE = 4096;

export interface LocalVisionModelsOptions {
  /** Plans the load against the memory budget; a load that does not fit is refused with its reason. */
  memory: Pick<MemoryBudgetService, 'plan'>;
  /** Told what the loaded model costs, and when it is unloaded. */
  onMemoryEntry: (entry: MemoryEntry) => void;
  gpu?: 'auto' | false;
  /** CPU threads; by default every core but one, at most 8. */
  threads?: number;
  /** A stand-in host for tests. */
  hostEntry?: LocalVisionModelOptions['hostEntry'];
}

/**
 * The vision models Quire runs itself, each in its own host process: planned against the memory
 * budget before loading, reported to it while loaded, and disposed together.
 */
export class LocalVisionModels {
  private readonly models: BudgetedModels<LocalVisionModel>;

  constructor(private readonly options: LocalVisionModelsOptions) {
    this.models = new BudgetedModels(options.onMemoryEntry);
  }

  async load(modelPath: string, projectorPath: string, signal?: AbortSignal): Promise<LocalVisionModel> {
    const files = await checkVisionFiles(modelPath, projectorPath);
    const contextSize = this.plan(files);
    const model = await LocalVisionModel.create(
      {
        modelPath,
        projectorPath,
        contextSize,
        gpu: this.options.gpu ?? 'auto',
        // Leave a core to the app: pages are read while the user works.
        threads: this.options.threads ?? Math.max(1, Math.min(8, availableParallelism() - 1)),
        ...(this.options.hostEntry ? { hostEntry: this.options.hostEntry } : {}),
      },
      signal,
    );
    this.models.add(model);
    return model;
  }

  async dispose(): Promise<void> {
    await this.models.dispose();
  }

  private plan(files: VisionFiles): number {
    const { model } = files;
    const wanted = Math.min(DEFAULT_CONTEXT_SIZE, model.trainContextSize || DEFAULT_CONTEXT_SIZE);
    const plan = this.options.memory.plan([
      {
        id: `llama-vision:${model.path}`,
        label: `${model.name ?? model.path} (vision)`,
        roles: ['see'],
        weightsBytes: model.weightsBytes + files.projectorBytes,
        contextSize: wanted,
        contextBytesPerToken: model.contextBytesPerToken,
        contextFixedBytes: model.contextFixedBytes,
        minContextSize: Math.min(MIN_CONTEXT_SIZE, wanted),
      },
    ]);
    if (plan.decision === 'refused') throw new QuireError('model_unavailable', plan.reason);
    return plan.loads[0]?.contextSize ?? wanted;
  }
}
