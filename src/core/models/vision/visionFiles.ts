/*
 * A vision model is two GGUF files: the language model and its projector (`mmproj`). Both are read
 * and checked here, from their headers alone, before any process loads them: a truncated or junk
 * file, or the two swapped, would otherwise abort llama.cpp or fail deep inside it.
 */
import { stat } from 'node:fs/promises';
import type { GgufFileInfo } from 'node-llama-cpp';
import { QuireError } from '../../../shared/errors';
import { describeGguf, type GgufDescription } from '../llama/describeGguf';
import { ggufLayoutProblem } from '../llama/ggufLayout';

export interface VisionFiles {
  model: GgufDescription;
  projectorPath: string;
  projectorBytes: number;
  /** What the projector's header calls its kind, e.g. `qwen2.5vl_merger`, when it says. */
  projectorType: string | null;
}

/** Reads both files' headers; rejects with the file and the reason when either cannot be used. */
export async function checkVisionFiles(modelPath: string, projectorPath: string): Promise<VisionFiles> {
  const model = await describeGguf(modelPath).catch((error: unknown) => {
    throw refusal(modelPath, 'vision model', problemOf(error));
  });
  if (model.architecture === 'clip')
    throw refusal(modelPath, 'vision model', 'it is a projector (mmproj), not a language model');
  const projector = await readProjector(projectorPath);
  return { model, ...projector, projectorPath };
}

async function readProjector(
  path: string,
): Promise<{ projectorBytes: number; projectorType: string | null }> {
  // Loaded on first use, as in describeGguf.
  const { readGgufFileInfo } = await import('node-llama-cpp');
  let info: GgufFileInfo;
  let bytes: number;
  try {
    bytes = (await stat(path)).size;
    info = await readGgufFileInfo(path, { sourceType: 'filesystem', logWarnings: false });
  } catch (error) {
    throw refusal(path, 'projector', `it is not a readable GGUF file (${problemOf(error)})`);
  }
  const layout = ggufLayoutProblem(info, bytes);
  if (layout) throw refusal(path, 'projector', layout);
  const metadata = info.metadata as unknown as Record<string, Record<string, unknown> | undefined>;
  const architecture = metadata.general?.architecture;
  if (architecture !== 'clip')
    throw refusal(
      path,
      'projector',
      `it is a ${String(architecture ?? 'unknown')} model, not a projector (its architecture must be clip)`,
    );
  const clip = metadata.clip;
  if (clip?.has_vision_encoder !== true)
    throw refusal(path, 'projector', 'it has no vision encoder (clip.has_vision_encoder is not set)');
  const type = clip.projector_type;
  return { projectorBytes: bytes, projectorType: typeof type === 'string' ? type : null };
}

function refusal(path: string, what: string, problem: string): QuireError {
  const reason = problem.replace(/\.$/, '');
  return new QuireError('model_failed', `The ${what} ${path} cannot be used: ${reason}.`, {
    path,
    problem: `${reason}.`,
  });
}

/** The reason alone: describeGguf's own messages name the file already. */
function problemOf(error: unknown): string {
  const details =
    error instanceof QuireError ? (error.details as { problem?: unknown } | undefined) : undefined;
  if (typeof details?.problem === 'string') return details.problem;
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/^.*?(is not a readable GGUF model|cannot be used|has GGUF metadata)/, '$1');
}
