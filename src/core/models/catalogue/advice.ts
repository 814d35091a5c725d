/*
 * What Quire tells a user who lacks a model for a role, in one voice: status messages, the CLI, the
 * Models panel and the README all use these sentences, and they name the model the setup would
 * propose for this machine.
 */
import type { ModelRole } from '../../../shared/domain/models';
import { CATALOGUE, type CatalogueModel } from './catalogue';
import { pickModel, type MachineFacts } from './recommend';

export type AdviceMachine = Pick<MachineFacts, 'totalBytes' | 'unifiedMemory' | 'appleSilicon'>;

/** The machine used when the real one is not measured yet: 16 GB on a Mac, a common case. */
export const TYPICAL_MACHINE: AdviceMachine = {
  totalBytes: 16 * 1024 ** 3,
  unifiedMemory: true,
  appleSilicon: true,
};

const SETUP = 'Set up models (`quire models setup`)';

/** How to get a model for `role`: the setup, Ollama, or a file in the models folder. */
export function roleAdvice(role: ModelRole, machine: AdviceMachine, modelsDir: string): string {
  const { model } = pickModel(role, machine);
  const pull = model.ollama ? `, \`ollama pull ${model.ollama}\`` : '';
  switch (role) {
    case 'decide':
    case 'answer':
      return `${SETUP} downloads ${model.label}; or${pull ? ` ${pull.slice(2)}, or` : ''} put a GGUF chat model in ${modelsDir}`;
    case 'embed':
      return `${SETUP} downloads ${model.label}; or${pull ? ` ${pull.slice(2)}, or` : ''} put a GGUF whose name has "embed" in ${modelsDir}`;
    case 'see':
      return `${SETUP}${pull ? ` or ${pull.slice(2)}` : ''}; until then answers read page text only`;
    case 'pageEmbed':
      return `${SETUP} downloads ${model.label}, or start a ColQwen server (mlx-embeddings-server or Infinity); until then page vectors come from the text embedder`;
  }
}

/** What `quire ask` prints when no model can answer. */
export function noModelHelp(machine: AdviceMachine, modelsDir: string): string {
  const { model } = pickModel('answer', machine);
  return [
    'No model is available to answer questions. Any of these works:',
    `  - \`quire models setup\`: downloads ${model.label} and the other models Quire uses (or Set up models in the app)`,
    ...(model.ollama
      ? [`  - Ollama: \`ollama pull ${model.ollama}\` (Quire finds a running Ollama by itself)`]
      : []),
    `  - a GGUF file: put it in ${modelsDir}, or pass \`--model path/to/model.gguf\``,
  ].join('\n');
}

/** What to do when the model hosts cannot be reached. */
export function offlineAdvice(machine: AdviceMachine, modelsDir: string): string {
  const { model } = pickModel('answer', machine);
  return [
    `Put a GGUF model in ${modelsDir} (for example ${model.files[0]?.fileName ?? model.label}), or`,
    `start Ollama and pull ${model.ollama ? `\`${model.ollama}\`` : 'a chat model'}, then try again.`,
  ].join(' ');
}

function gigabytes(bytes: number): string {
  return `${(bytes / 1e9).toFixed(bytes < 1e9 ? 2 : 1)} GB`;
}

/** The catalogue as a Markdown table, for the README (a test keeps the two the same). */
export function catalogueTable(models: readonly CatalogueModel[] = CATALOGUE): string {
  const rows = models.map((model) => {
    const size = gigabytes(model.files.reduce((sum, file) => sum + file.sizeBytes, 0));
    return `| ${model.roles.join(', ')} | ${model.label} | ${size} | ${model.ollama ? `\`${model.ollama}\`` : '—'} | ${model.licence} | ${model.quality.note} |`;
  });
  return [
    '| roles | model | download | Ollama | licence | quality (published) |',
    '|---|---|---|---|---|---|',
    ...rows,
  ].join('\n');
}
