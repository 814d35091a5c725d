/*
 * The vision model Quire runs itself: a GGUF language model and its projector, checked before loading,
 * run by llama.cpp with image input in its own host process (vision.child.ts), and reported to the
 * memory budget while loaded. It serves the `see` role as a ChatModel that takes images.
 */
import { basename } from 'node:path';
import { loadSharp } from '../../common/sharp';
import type { MemoryEntry } from '../../../shared/domain/models';
import { QuireError } from '../../../shared/errors';
import { HostClient, type HostCallOptions } from '../host/hostClient';
import { LoadedState } from '../host/loadedState';
import { contextBytes } from '../llama/describeGguf';
import type { ChatModel, ChatRequest, ChatResponse } from '../types';
import type {
  VisionChatRequest,
  VisionChatResult,
  VisionLoadInfo,
  VisionLoadOptions,
  VisionRequest,
} from './protocol';
import { checkVisionFiles, type VisionFiles } from './visionFiles';

export interface LocalVisionModelOptions extends VisionLoadOptions {
  /** Longest one look at the pages may take. Defaults to 10 minutes (a few pages on a slow CPU). */
  timeoutMs?: number;
  /** Limit for starting the host and loading both files. Defaults to 120 s. */
  loadTimeoutMs?: number;
  /** How long a cancelled call may take to stop before the host is killed. Defaults to 5 s. */
  stopGraceMs?: number;
  /** The host's module; a test gives a stand-in that speaks the same messages. */
  hostEntry?: { callerUrl: string; path: string };
}

class VisionHost extends HostClient<VisionRequest, VisionLoadInfo> {
  constructor(options: LocalVisionModelOptions) {
    super({
      entry: options.hostEntry ?? { callerUrl: import.meta.url, path: './vision.child.ts' },
      subject: options.modelPath,
      load: { type: 'load', options: loadOptions(options) },
      ...(options.loadTimeoutMs === undefined ? {} : { loadTimeoutMs: options.loadTimeoutMs }),
      ...(options.stopGraceMs === undefined ? {} : { stopGraceMs: options.stopGraceMs }),
      signalHint: (signal) =>
        signal === 'SIGABRT'
          ? 'llama.cpp aborted, which usually means the model or its projector is malformed or unsupported.'
          : null,
    });
  }

  async chat(request: VisionChatRequest, options: HostCallOptions): Promise<VisionChatResult> {
    return (await this.work({ type: 'chat', request }, options)) as VisionChatResult;
  }
}

function loadOptions(options: LocalVisionModelOptions): VisionLoadOptions {
  return {
    modelPath: options.modelPath,
    projectorPath: options.projectorPath,
    ...(options.contextSize === undefined ? {} : { contextSize: options.contextSize }),
    ...(options.threads === undefined ? {} : { threads: options.threads }),
    ...(options.gpu === undefined ? {} : { gpu: options.gpu }),
  };
}

/** llama.cpp reads PNG and JPEG; page images are stored as WebP. */
async function readableImage(image: Uint8Array): Promise<Uint8Array> {
  const png = image[0] === 0x89 && image[1] === 0x50;
  const jpeg = image[0] === 0xff && image[1] === 0xd8;
  if (png || jpeg) return image;
  return new Uint8Array(await loadSharp()(image).png().toBuffer());
}

function cancelled(): QuireError {
  return new QuireError('cancelled', 'Cancelled.');
}

export class LocalVisionModel implements ChatModel {
  readonly provider = 'llama' as const;
  readonly supportsImages = true;
  private readonly loaded = new LoadedState(true);

  private constructor(
    readonly id: string,
    private readonly files: VisionFiles,
    private readonly info: VisionLoadInfo,
    private readonly host: VisionHost,
    private readonly timeoutMs: number,
  ) {}

  /** Checks both files (a broken one is refused here, before any process starts), then loads them. */
  static async create(options: LocalVisionModelOptions, signal?: AbortSignal): Promise<LocalVisionModel> {
    const files = await checkVisionFiles(options.modelPath, options.projectorPath);
    if (signal?.aborted) throw cancelled();
    const host = new VisionHost(options);
    const stop = () => void host.dispose();
    signal?.addEventListener('abort', stop, { once: true });
    try {
      const info = await host.ensureLoaded();
      if (signal?.aborted) throw cancelled();
      return new LocalVisionModel(
        `llama-vision:${options.modelPath}`,
        files,
        info,
        host,
        options.timeoutMs ?? 10 * 60_000,
      );
    } catch (error) {
      await host.dispose();
      // Stopping the host is how a cancelled load ends: say it was cancelled, not that the host went away.
      if (signal?.aborted) throw cancelled();
      throw error;
    } finally {
      signal?.removeEventListener('abort', stop);
    }
  }

  async chat(request: ChatRequest): Promise<ChatResponse> {
    const messages = await Promise.all(
      request.messages.map(async (message) => ({
        role: message.role,
        content: message.content,
        ...(message.images?.length ? { images: await Promise.all(message.images.map(readableImage)) } : {}),
      })),
    );
    const result = await this.tracked(() =>
      this.host.chat(
        {
          messages,
          stream: request.onToken !== undefined,
          ...(request.maxTokens === undefined ? {} : { maxTokens: request.maxTokens }),
          ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
          ...(request.jsonSchema ? { jsonSchema: request.jsonSchema } : {}),
        },
        {
          timeoutMs: this.timeoutMs,
          ...(request.signal ? { signal: request.signal } : {}),
          ...(request.onToken ? { onToken: request.onToken } : {}),
        },
      ),
    );
    return { text: result.text, outputTokens: result.outputTokens };
  }

  /** What the memory budget counts: both files' weights and the context, while the host runs. */
  memoryEntry(): MemoryEntry {
    return {
      id: this.id,
      label: `${this.files.model.name ?? basename(this.info.modelPath)} (vision, in-process)`,
      roles: ['see'],
      loaded: this.loaded.value,
      weightsBytes: this.files.model.weightsBytes + this.files.projectorBytes,
      kvCacheBytes: contextBytes(this.files.model, this.info.contextSize),
      contextSize: this.info.contextSize,
      external: false,
    };
  }

  onLoadedChange(listener: (loaded: boolean) => void): () => void {
    return this.loaded.onChange(listener);
  }

  async dispose(): Promise<void> {
    await this.host.dispose();
    this.loaded.set(false);
  }

  private tracked<T>(work: () => Promise<T>): Promise<T> {
    return this.loaded.track(work, () => this.host.isLoaded);
  }
}
