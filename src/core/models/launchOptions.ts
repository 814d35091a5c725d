import { resolve } from 'node:path';

/**
 * The model choices a launch brings with it, read the same way by the app, `quire serve` and every
 * other command: a flag wins over the environment, and both add to (never replace) what the user
 * chose in settings.
 */
export interface ModelLaunchOptions {
  /** `--model PATH.gguf` or QUIRE_MODEL: a local GGUF for every text role, as an absolute path. */
  modelPath: string | null;
  /** `--server URL` (repeatable) and QUIRE_SERVERS (comma-separated): servers to use besides the ones found. */
  servers: string[];
  /** `--embedder DIR` or QUIRE_EMBEDDER: an ONNX sentence embedder folder for the embed role, as an absolute path. */
  embedderPath: string | null;
  /** `--page-embedder DIR` or QUIRE_PAGE_EMBEDDER: an ONNX page-embedder folder, as an absolute path. */
  pageEmbedderPath: string | null;
  /** `--vision-model PATH.gguf` or QUIRE_VISION_MODEL: a vision model run in-process, as an absolute path. */
  visionModelPath: string | null;
  /** `--vision-projector PATH.gguf` or QUIRE_VISION_PROJECTOR: that model's projector (mmproj). */
  visionProjectorPath: string | null;
  /** HF_ENDPOINT: a Hugging Face mirror to download catalogue models from (huggingface_hub's variable). */
  hubEndpoint?: string;
}

export interface LaunchFlags {
  model?: string;
  server?: string[];
  embedder?: string;
  pageEmbedder?: string;
  visionModel?: string;
  visionProjector?: string;
}

export function modelLaunchOptions(
  flags: LaunchFlags = {},
  env: Record<string, string | undefined> = process.env,
): ModelLaunchOptions {
  const model = flags.model ?? env.QUIRE_MODEL;
  const embedder = flags.embedder ?? env.QUIRE_EMBEDDER;
  const pageEmbedder = flags.pageEmbedder ?? env.QUIRE_PAGE_EMBEDDER;
  const visionModel = flags.visionModel ?? env.QUIRE_VISION_MODEL;
  const visionProjector = flags.visionProjector ?? env.QUIRE_VISION_PROJECTOR;
  const fromEnv = (env.QUIRE_SERVERS ?? '')
    .split(',')
    .map((url) => url.trim())
    .filter(Boolean);
  return {
    modelPath: model ? resolve(model) : null,
    servers: [...new Set([...(flags.server ?? []), ...fromEnv])],
    embedderPath: embedder ? resolve(embedder) : null,
    pageEmbedderPath: pageEmbedder ? resolve(pageEmbedder) : null,
    visionModelPath: visionModel ? resolve(visionModel) : null,
    visionProjectorPath: visionProjector ? resolve(visionProjector) : null,
    ...(env.HF_ENDPOINT ? { hubEndpoint: env.HF_ENDPOINT } : {}),
  };
}

/** Why the vision files given cannot be used as a pair: a model reads images only with its projector. */
export function visionLaunchProblem(launch: ModelLaunchOptions): string | null {
  if (Boolean(launch.visionModelPath) === Boolean(launch.visionProjectorPath)) return null;
  return launch.visionModelPath
    ? '--vision-model needs its projector: give it with --vision-projector (or QUIRE_VISION_PROJECTOR).'
    : '--vision-projector needs its model: give it with --vision-model (or QUIRE_VISION_MODEL).';
}
