import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { planLocalModel } from '../../src/core/models/llama/localModelPlan';
import { MemoryBudgetService } from '../../src/core/memory/memoryBudgetService';
import { tempDir } from '../helpers/shared';
import { writeTinyGguf } from '../helpers/tinyModel';

const GiB = 1024 ** 3;

async function budgetOf(totalGiB: number): Promise<MemoryBudgetService> {
  const memory = new MemoryBudgetService({
    readMachine: async () => ({
      totalBytes: totalGiB * GiB,
      availableBytes: totalGiB * GiB * 0.7,
      unifiedMemory: false,
      source: 'freemem',
    }),
  });
  await memory.refresh();
  return memory;
}

describe('planning a local GGUF against the memory budget', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let model: string;
  beforeEach(async () => {
    dir = await tempDir('quire-plan-');
    model = join(dir.path, 'tiny.gguf');
    await writeTinyGguf(model);
  });
  afterEach(() => dir.cleanup());

  it('gives the context size to load with when the model fits', async () => {
    const contextSize = await planLocalModel(await budgetOf(16), model);
    // The tiny model was trained on 2048 tokens: the plan never asks for more.
    expect(contextSize).toBe(2048);
  });

  it('refuses with the planner’s reason when nothing fits', async () => {
    await expect(planLocalModel(await budgetOf(1), model)).rejects.toMatchObject({
      code: 'model_unavailable',
    });
  });
});
