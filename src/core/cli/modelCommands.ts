import { resolve } from 'node:path';
import type { ModelsStatus } from '../../shared/domain/models';
import { QuireError } from '../../shared/errors';
import { createCore, type Core } from '../createCore';
import { formatBytes, printJson } from './output';

export const NO_MODEL_HELP =
  'No model is available to answer questions. Start one of these and try again:\n' +
  '  - Ollama: `ollama pull qwen3:4b` (Quire finds a running Ollama by itself)\n' +
  '  - an MLX server on a Mac: `mlx_lm.server --model mlx-community/Qwen3-4B-4bit`\n' +
  '  - a GGUF file: `quire ask ... --model path/to/model.gguf`, or download one in the app (Models panel)';

/** `quire models status`: each role with its provider, model and reason; servers; the memory budget. */
export interface ModelCommandOptions {
  dataDir: string;
  json: boolean;
  modelPath: string | null;
  servers: string[];
}

/** A core for one command that uses models but leaves the library as it is. */
export async function startModelCore(options: ModelCommandOptions): Promise<Core> {
  const core = createCore({
    dataDir: options.dataDir,
    ingest: false,
    modelPath: options.modelPath ? resolve(options.modelPath) : null,
    servers: options.servers,
  });
  await core.start();
  return core;
}

export async function modelsCommand(args: string[], options: ModelCommandOptions): Promise<void> {
  if (args[0] !== 'status')
    throw new QuireError('invalid_input', 'Usage: quire models status [--model PATH.gguf]');
  const core = await startModelCore(options);
  try {
    if (options.modelPath) {
      // Reads the GGUF's header now, so a broken file is reported here rather than at the first question.
      await core.models.chatModel('decide');
    }
    const status = core.models.status();
    if (options.json) printJson(status);
    else printStatus(status);
    const problem = options.modelPath ? core.models.problemWith(resolve(options.modelPath)) : null;
    if (problem) {
      process.stderr.write(`quire: the model ${options.modelPath} cannot be used: ${problem}\n`);
      process.exitCode = 1;
    }
  } finally {
    await core.close();
  }
}

function printStatus(status: ModelsStatus): void {
  console.log('Roles');
  for (const role of status.roles) {
    const serving = role.provider ? `${role.provider} ${role.model ?? ''}`.trim() : 'none';
    console.log(`  ${role.role.padEnd(10)} ${serving}\n             ${role.reason}`);
  }
  console.log('Servers');
  if (status.servers.length === 0) console.log('  none found');
  for (const server of status.servers) {
    console.log(
      `  ${server.kind} ${server.endpoint} ${server.reachable ? `${server.models.length} models` : (server.error ?? 'unreachable')}`,
    );
  }
  const memory = status.memory;
  console.log('Memory');
  console.log(
    `  ${formatBytes(memory.availableBytes)} available of ${formatBytes(memory.totalBytes)}; ` +
      `${formatBytes(Math.max(0, memory.freeForModelsBytes))} free for models after ${formatBytes(memory.appHeadroomBytes)} headroom`,
  );
  for (const entry of memory.entries) {
    console.log(
      `  ${entry.label}: weights ${formatBytes(entry.weightsBytes)}, KV cache ${formatBytes(entry.kvCacheBytes)}${entry.loaded ? ' (loaded)' : ''}`,
    );
  }
  for (const note of memory.notes) console.log(`  ${note}`);
}
