import { QuireError } from '../../../shared/errors';
import { describeGguf } from './describeGguf';
import type { MemoryBudgetService } from '../../memory/memoryBudgetService';

const DEFAULT_CONTEXT_SIZE = 4096;

/**
 * Checks that a local GGUF fits in memory before it is loaded and returns the context size to load it
 * with (the planner may shrink it); refuses with the planner's reason rather than risk running out.
 */
export async function planLocalModel(
  memory: Pick<MemoryBudgetService, 'plan'>,
  path: string,
): Promise<number> {
  const description = await describeGguf(path);
  const plan = memory.plan([
    {
      id: `llama:${path}`,
      label: description.name ?? path,
      roles: ['decide', 'answer', 'embed'],
      weightsBytes: description.weightsBytes,
      contextSize: Math.min(DEFAULT_CONTEXT_SIZE, description.trainContextSize || DEFAULT_CONTEXT_SIZE),
      contextBytesPerToken: description.contextBytesPerToken,
      contextFixedBytes: description.contextFixedBytes,
    },
  ]);
  if (plan.decision === 'refused') throw new QuireError('model_unavailable', plan.reason);
  return plan.loads[0]?.contextSize ?? DEFAULT_CONTEXT_SIZE;
}
