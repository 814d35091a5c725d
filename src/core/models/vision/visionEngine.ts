/*
 * The child side of the vision model: llama.cpp with image input (@fugood/llama.node), the language
 * model and its projector loaded together. Runs only inside the vision host process: this is a second
 * copy of llama.cpp beside node-llama-cpp's, and a malformed file can abort the process that loads it.
 */
import { QuireError } from '../../../shared/errors';
import { checkedGguf } from '../ggufHeader';
import type { VisionChatRequest, VisionChatResult, VisionLoadInfo, VisionLoadOptions } from './protocol';

type MessagePart = { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } };

/**
 * The part of @fugood/llama.node used here. The package publishes its TypeScript sources as its types,
 * which do not compile under this project's strict settings, so it is imported by name at run time
 * and described here instead.
 */
interface Context {
  completion(
    options: {
      messages: Array<{ role: string; content: string | MessagePart[] }>;
      n_predict: number;
      temperature: number;
      json_schema?: string;
      enable_thinking?: boolean;
    },
    onToken: (token: { token: string }) => void,
  ): Promise<{ text: string; content?: string; tokens_predicted: number }>;
  stopCompletion(): void;
  initMultimodal(options: { path: string; use_gpu?: boolean }): boolean;
  getMultimodalSupport(): { vision: boolean; audio: boolean };
  releaseMultimodal(): void;
  release(): Promise<void>;
}

interface LlamaNode {
  loadModel(options: {
    model: string;
    n_ctx: number;
    n_threads: number;
    n_gpu_layers: number;
    n_parallel: number;
  }): Promise<Context>;
}

const PACKAGE: string = '@fugood/llama.node';

const DEFAULT_CONTEXT_SIZE = 4096;
/** Layers offloaded when a GPU may be used: more than any model has, so all of them. */
const ALL_LAYERS = 999;

export class VisionEngine {
  private context: Context | null = null;
  private info: VisionLoadInfo | null = null;

  async load(options: VisionLoadOptions): Promise<VisionLoadInfo> {
    if (this.context) await this.dispose();
    // llama.cpp trusts the headers; one that lies aborts this process (see ggufHeader.ts).
    await checkedGguf(options.modelPath);
    await checkedGguf(options.projectorPath);
    const llama = (await import(PACKAGE)) as LlamaNode;
    const contextSize = options.contextSize ?? DEFAULT_CONTEXT_SIZE;
    const useGpu = options.gpu !== false;
    let context: Context;
    try {
      context = await llama.loadModel({
        model: options.modelPath,
        n_ctx: contextSize,
        n_threads: options.threads ?? 0,
        n_gpu_layers: useGpu ? ALL_LAYERS : 0,
        // One conversation at a time: every parallel slot would hold a KV cache of its own.
        n_parallel: 1,
      });
    } catch (error) {
      throw new QuireError(
        'model_failed',
        `The vision model ${options.modelPath} did not load: ${text(error)}`,
      );
    }
    try {
      if (!context.initMultimodal({ path: options.projectorPath, use_gpu: useGpu }))
        throw new Error('llama.cpp did not accept it');
    } catch (error) {
      await context.release().catch(() => undefined);
      throw new QuireError(
        'model_failed',
        `The projector ${options.projectorPath} did not load with ${options.modelPath}: ${text(error)}`,
      );
    }
    const vision = context.getMultimodalSupport().vision;
    if (!vision) {
      await context.release().catch(() => undefined);
      throw new QuireError('model_failed', `The projector ${options.projectorPath} does not read images.`);
    }
    this.context = context;
    this.info = { modelPath: options.modelPath, projectorPath: options.projectorPath, contextSize, vision };
    return this.info;
  }

  async chat(
    request: VisionChatRequest,
    options: { signal: AbortSignal; onToken?: (text: string) => void },
  ): Promise<VisionChatResult> {
    const context = this.context;
    if (!context) throw new QuireError('model_failed', 'The vision model is not loaded.');
    if (options.signal.aborted) throw new QuireError('cancelled', 'Cancelled.');
    const stop = () => context.stopCompletion();
    options.signal.addEventListener('abort', stop, { once: true });
    try {
      const result = await context.completion(
        {
          messages: request.messages.map((message) => ({
            role: message.role,
            content: parts(message.content, message.images ?? []),
          })),
          n_predict: request.maxTokens ?? 512,
          temperature: request.temperature ?? 0,
          ...(request.jsonSchema ? { json_schema: JSON.stringify(request.jsonSchema) } : {}),
          // Page reading wants the answer, not a reasoning trace before it.
          enable_thinking: false,
        },
        (token) => {
          if (request.stream && token.token) options.onToken?.(token.token);
        },
      );
      if (options.signal.aborted) throw new QuireError('cancelled', 'Cancelled.');
      // `content` is the answer without any reasoning block; older chat formats fill only `text`.
      return { text: result.content || result.text, outputTokens: result.tokens_predicted };
    } finally {
      options.signal.removeEventListener('abort', stop);
    }
  }

  async dispose(): Promise<void> {
    const context = this.context;
    this.context = null;
    this.info = null;
    if (!context) return;
    context.releaseMultimodal();
    await context.release();
  }
}

/** A message as llama.node reads it: images become `image_url` parts carrying data URLs. */
function parts(content: string, images: Uint8Array[]): string | MessagePart[] {
  if (images.length === 0) return content;
  return [
    ...images.map((image): MessagePart => ({
      type: 'image_url',
      image_url: { url: `data:${mimeOf(image)};base64,${Buffer.from(image).toString('base64')}` },
    })),
    { type: 'text', text: content },
  ];
}

function mimeOf(image: Uint8Array): string {
  return image[0] === 0xff && image[1] === 0xd8 ? 'image/jpeg' : 'image/png';
}

function text(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
