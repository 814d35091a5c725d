/*
 * A vision model is two GGUF files: the language model and its projector (`mmproj`). Both are read
 * and checked here, from their headers alone, before any process loads them: a truncated or junk
 * file, or the two swapped, would otherwise abort llama.cpp or fail deep inside it.
 */
import { QuireError } from '../../../shared/errors';
import { readGgufHeader, UnusableGgufError, type GgufHeader } from '../ggufHeader';
import { describeGguf, type GgufDescription } from '../llama/describeGguf';

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
  let header: GgufHeader;
  try {
    header = await readGgufHeader(path);
  } catch (error) {
    if (error instanceof UnusableGgufError) throw refusal(path, 'projector', error.reason);
    throw refusal(path, 'projector', `it is not a readable GGUF file (${problemOf(error)})`);
  }
  const architecture = header.architecture;
  if (architecture !== 'clip')
    throw refusal(
      path,
      'projector',
      `it is a ${architecture ?? 'unknown'} model, not a projector (its architecture must be clip)`,
    );
  if (header.metadata.get('clip.has_vision_encoder') !== true)
    throw refusal(path, 'projector', 'it has no vision encoder (clip.has_vision_encoder is not set)');
  const type = header.metadata.get('clip.projector_type');
  return { projectorBytes: header.fileBytes, projectorType: typeof type === 'string' ? type : null };
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
