/*
 * The runtimes Quire runs models in itself (llama.cpp for chat and text embeddings, ONNX Runtime for
 * page embeddings and sentence embedders, llama.cpp with a projector for reading pages), each in processes of its own. They
 * share one memory budget, which sees what each holds, and the same device settings.
 */
import type { MemoryBudgetService } from '../memory/memoryBudgetService';
import { planLocalModel } from './llama/localModelPlan';
import { LocalModels } from './llama/localModels';
import { LocalPageEmbedders } from './onnx/localPageEmbedders';
import { LocalTextEmbedders } from './onnx/localTextEmbedders';
import { LocalVisionModels } from './vision/localVisionModels';

export interface LocalRuntimeSettings {
  /** `false` keeps every model on the CPU. */
  gpu?: 'auto' | false;
  /** Threads each runtime may use; unset, the runtime decides. */
  modelThreads?: number;
  /** How long an idle page or ONNX text embedder stays loaded. */
  idleReleaseMs?: number;
}

export interface LocalRuntimes {
  models: LocalModels;
  pageEmbedders: LocalPageEmbedders;
  textEmbedders: LocalTextEmbedders;
  visionModels: LocalVisionModels;
  dispose(): Promise<void>;
}

export function createLocalRuntimes(
  settings: LocalRuntimeSettings,
  memory: Pick<MemoryBudgetService, 'plan' | 'setEntry'>,
): LocalRuntimes {
  const threads = settings.modelThreads ? { threads: settings.modelThreads } : {};
  const gpu = settings.gpu ?? 'auto';
  const onMemoryEntry: MemoryBudgetService['setEntry'] = (entry) => memory.setEntry(entry);
  const models = new LocalModels({
    contextSizeFor: (path) => planLocalModel(memory, path),
    onMemoryEntry,
    gpu,
    ...threads,
  });
  const pageEmbedders = new LocalPageEmbedders({
    onMemoryEntry,
    idleUnloadMs: settings.idleReleaseMs,
    accelerator: gpu,
    ...threads,
  });
  const textEmbedders = new LocalTextEmbedders({
    onMemoryEntry,
    idleUnloadMs: settings.idleReleaseMs,
    ...threads,
  });
  const visionModels = new LocalVisionModels({ memory, onMemoryEntry, gpu, ...threads });
  return {
    models,
    pageEmbedders,
    textEmbedders,
    visionModels,
    async dispose() {
      await models.dispose();
      await pageEmbedders.dispose();
      await textEmbedders.dispose();
      await visionModels.dispose();
    },
  };
}
