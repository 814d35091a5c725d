/*
 * What a GGUF file will cost in memory, read from its header alone, after checking that the file holds
 * every tensor its header lists. readGgufFileInfo and the synchronous
 * GgufInsights estimates are plain JavaScript, so a malformed file throws here instead of aborting the
 * process (the `V2` estimates simulate a load in native code and are avoided for that reason).
 */
import { stat } from 'node:fs/promises';
import { GgufFileType, GgufInsights, readGgufFileInfo, type GgufFileInfo } from 'node-llama-cpp';
import { QuireError } from '../../../shared/errors';
import { ggufLayoutProblem } from './ggufLayout';

export interface GgufDescription {
  path: string;
  fileBytes: number;
  architecture: string;
  name: string | null;
  /** The weights' quantization as llama.cpp names it, e.g. `MOSTLY_Q4_K_M`, when the file says. */
  fileType: string | null;
  /** Bytes of the weights once loaded. */
  weightsBytes: number;
  trainContextSize: number;
  embeddingLength: number;
  layers: number;
  /** Context memory = contextFixedBytes + contextBytesPerToken * contextSize (KV cache plus compute buffers). */
  contextFixedBytes: number;
  contextBytesPerToken: number;
  /** Problems llama.cpp would also report about this file. */
  warnings: string[];
}

const PROBE_CONTEXT_SMALL = 1024;
const PROBE_CONTEXT_LARGE = 2048;

export async function describeGguf(path: string): Promise<GgufDescription> {
  let info: GgufFileInfo;
  let fileBytes: number;
  try {
    fileBytes = (await stat(path)).size;
    info = await readGgufFileInfo(path, { sourceType: 'filesystem', logWarnings: false });
  } catch (error) {
    throw new QuireError('model_failed', `${path} is not a readable GGUF model: ${describe(error)}`, {
      path,
    });
  }
  const problem = ggufLayoutProblem(info, fileBytes);
  if (problem) throw new QuireError('model_failed', `${path} cannot be used: ${problem}.`, { path, problem });
  try {
    const insights = await GgufInsights.from(info);
    const contextBytes = (contextSize: number) => {
      const estimate = insights.estimateContextResourceRequirements({ contextSize, modelGpuLayers: 0 });
      // On a discrete GPU part of this is VRAM; counting it all as RAM errs on the safe side.
      return estimate.cpuRam + estimate.gpuVram;
    };
    const small = contextBytes(PROBE_CONTEXT_SMALL);
    const perToken =
      (contextBytes(PROBE_CONTEXT_LARGE) - small) / (PROBE_CONTEXT_LARGE - PROBE_CONTEXT_SMALL);
    const general = info.metadata.general;
    return {
      path,
      fileBytes,
      architecture: String(general?.architecture ?? 'unknown'),
      name: general?.name ?? null,
      fileType: general?.file_type === undefined ? null : fileTypeName(general.file_type),
      weightsBytes: insights.modelSize,
      trainContextSize: insights.trainContextSize ?? 0,
      embeddingLength: insights.embeddingVectorSize ?? 0,
      layers: insights.totalLayers,
      contextFixedBytes: Math.max(0, Math.round(small - perToken * PROBE_CONTEXT_SMALL)),
      contextBytesPerToken: Math.max(0, perToken),
      warnings: insights.getWarnings(path),
    };
  } catch (error) {
    throw new QuireError('model_failed', `${path} has GGUF metadata Quire cannot use: ${describe(error)}`, {
      path,
    });
  }
}

/** Memory a context of `contextSize` tokens takes for the described model. */
export function contextBytes(description: GgufDescription, contextSize: number): number {
  return Math.round(description.contextFixedBytes + description.contextBytesPerToken * contextSize);
}

function fileTypeName(fileType: GgufFileType): string {
  return GgufFileType[fileType] ?? `type ${fileType}`;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
