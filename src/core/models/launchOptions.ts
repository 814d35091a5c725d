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
  /** `--page-embedder DIR` or QUIRE_PAGE_EMBEDDER: an ONNX page-embedder folder, as an absolute path. */
  pageEmbedderPath: string | null;
  /** HF_ENDPOINT: a Hugging Face mirror to download catalogue models from (huggingface_hub's variable). */
  hubEndpoint?: string;
}

export interface LaunchFlags {
  model?: string;
  server?: string[];
  pageEmbedder?: string;
}

export function modelLaunchOptions(
  flags: LaunchFlags = {},
  env: Record<string, string | undefined> = process.env,
): ModelLaunchOptions {
  const model = flags.model ?? env.QUIRE_MODEL;
  const pageEmbedder = flags.pageEmbedder ?? env.QUIRE_PAGE_EMBEDDER;
  const fromEnv = (env.QUIRE_SERVERS ?? '')
    .split(',')
    .map((url) => url.trim())
    .filter(Boolean);
  return {
    modelPath: model ? resolve(model) : null,
    servers: [...new Set([...(flags.server ?? []), ...fromEnv])],
    pageEmbedderPath: pageEmbedder ? resolve(pageEmbedder) : null,
    ...(env.HF_ENDPOINT ? { hubEndpoint: env.HF_ENDPOINT } : {}),
  };
}
