import { getLlama, LlamaLogLevel } from 'node-llama-cpp';
import { describe, expect, it } from 'vitest';
import { describeGguf } from '../../src/core/models/llama/describeGguf';
import { llamaBackend } from '../../src/core/models/llama/residentMemory';
import { realModelsSkipReason, requireRealModel } from '../helpers/realModels';

// In a file of its own: run after the tiny-model tests in one process, this load's log lines never
// reached the logger given here (a Llama made earlier by describing a GGUF kept them).
const MiB = 1024 ** 2;

const skipReal = realModelsSkipReason();
describe.skipIf(skipReal !== null)(
  `repacked and mapped bytes against llama.cpp's own load log${skipReal ? ` (skipped: ${skipReal})` : ''}`,
  () => {
    it('match the CPU_REPACK and CPU_Mapped buffers llama.cpp reports for Gemma 3 270M Q4_K_M', async () => {
      const gemma = requireRealModel('chat', 'gemma-3-270m-Q4_K_M');
      const buffers = new Map<string, number>();
      const llama = await getLlama({
        gpu: false,
        build: 'never',
        progressLogs: false,
        logLevel: LlamaLogLevel.debug,
        logger: (_level, message) => {
          const match = /(CPU_REPACK|CPU_Mapped) model buffer size =\s*([\d.]+) MiB/.exec(message);
          if (match) buffers.set(match[1]!, Number(match[2]));
        },
      });
      const model = await llama.loadModel({ modelPath: gemma.path });
      // Native log lines reach JavaScript asynchronously, after the load resolves.
      for (let wait = 0; wait < 200 && !(buffers.has('CPU_Mapped') && buffers.has('CPU_REPACK')); wait++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await model.dispose();
      await llama.dispose();

      const description = await describeGguf(gemma.path, { backend: llamaBackend(false) });
      // The log rounds to hundredths of a MiB.
      expect(
        Math.abs(description.loaded.repackedBytes / MiB - (buffers.get('CPU_REPACK') ?? 0)),
      ).toBeLessThan(0.01);
      expect(description.loaded.repackedBytes).toBeGreaterThan(0);
      expect(Math.abs(description.loaded.mappedBytes / MiB - (buffers.get('CPU_Mapped') ?? 0))).toBeLessThan(
        0.01,
      );
    }, 120_000);
  },
);
