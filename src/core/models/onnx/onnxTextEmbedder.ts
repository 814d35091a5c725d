/*
 * An in-process text embedder: a BERT-family sentence embedder (BGE, E5, MiniLM) run by ONNX Runtime
 * in its own host process, loaded on first use and ended after a while without work.
 */
import { basename, dirname } from 'node:path';
import type { MemoryEntry } from '../../../shared/domain/models';
import { HostClient, type HostCallOptions } from '../host/hostClient';
import { IdleRelease } from '../host/idleRelease';
import { LoadedState } from '../host/loadedState';
import type { EmbedOptions, TextEmbedder } from '../types';
import { fingerprint } from './onnxPageEmbedder';
import type {
  OnnxTextEmbedderInfo,
  OnnxTextEmbedderLoadOptions,
  TextKind,
  TextVectors,
} from './textEmbedderEngine';
import { readTextEmbedderFiles } from './textEmbedderFiles';
import { estimatedResidentBytes } from './textEmbedderMemory';
import type { TextEmbedderRequest } from './textEmbedderProtocol';

export interface OnnxTextEmbedderOptions extends OnnxTextEmbedderLoadOptions {
  /** Longest one call may take. Defaults to 5 minutes (a large batch on a slow CPU). */
  timeoutMs?: number;
  loadTimeoutMs?: number;
  /** Its host process exits after this long without work, giving the memory back; the next call reloads. */
  idleUnloadMs?: number | undefined;
}

class TextEmbedderHost extends HostClient<TextEmbedderRequest, OnnxTextEmbedderInfo> {
  constructor(options: OnnxTextEmbedderOptions) {
    super({
      entry: { callerUrl: import.meta.url, path: './textEmbedder.child.ts' },
      subject: options.modelPath,
      load: {
        type: 'load',
        options: {
          modelPath: options.modelPath,
          ...(options.threads === undefined ? {} : { threads: options.threads }),
          ...(options.textsPerRun === undefined ? {} : { textsPerRun: options.textsPerRun }),
        },
      },
      ...(options.loadTimeoutMs === undefined ? {} : { loadTimeoutMs: options.loadTimeoutMs }),
    });
  }

  async embed(texts: string[], kind: TextKind, options: HostCallOptions): Promise<TextVectors> {
    return (await this.work({ type: 'embed', texts, kind }, options)) as TextVectors;
  }
}

export class OnnxTextEmbedder implements TextEmbedder {
  private readonly loaded = new LoadedState(true);
  private readonly idle: IdleRelease;

  private constructor(
    readonly id: string,
    readonly dimensions: number,
    readonly info: OnnxTextEmbedderInfo,
    private readonly modelBytes: number,
    private readonly host: TextEmbedderHost,
    private readonly timeoutMs: number,
    idleUnloadMs: number | undefined,
  ) {
    this.idle = new IdleRelease(host, this.loaded, idleUnloadMs);
  }

  /**
   * Checks the folder first (a missing tokenizer or an unknown family fails here, before any process
   * starts), then loads the model in its host process, which embeds a test text to learn the size.
   */
  static async create(options: OnnxTextEmbedderOptions): Promise<OnnxTextEmbedder> {
    const files = await readTextEmbedderFiles(options.modelPath);
    const { digest, bytes } = await fingerprint(files.modelPath);
    const host = new TextEmbedderHost(options);
    const info = await host.ensureLoaded();
    const name = basename(dirname(files.modelPath));
    const embedder = new OnnxTextEmbedder(
      // The family is part of the id: the same file pooled another way gives other vectors.
      `onnx:${info.family}:${name}:${digest}`,
      info.dimensions,
      info,
      bytes,
      host,
      options.timeoutMs ?? 5 * 60_000,
      options.idleUnloadMs,
    );
    embedder.idle.scheduleRelease();
    return embedder;
  }

  async embed(texts: string[], options: EmbedOptions = {}): Promise<Float32Array[]> {
    if (texts.length === 0) return [];
    const { kind = 'passage', ...call } = options;
    const output = await this.idle.run(() =>
      this.host.embed(texts, kind, { ...call, timeoutMs: this.timeoutMs }),
    );
    const vectors: Float32Array[] = [];
    for (let i = 0; i < output.count; i++)
      vectors.push(output.values.slice(i * this.dimensions, (i + 1) * this.dimensions));
    return vectors;
  }

  /** What the memory budget counts while the host runs: the file, and what running it adds (measured). */
  memoryEntry(): MemoryEntry {
    return {
      id: this.id,
      label: `${basename(dirname(this.info.modelFile))} (text embedder, ONNX on the CPU)`,
      roles: ['embed'],
      loaded: this.loaded.value,
      weightsBytes: this.modelBytes,
      kvCacheBytes: estimatedResidentBytes(this.modelBytes) - this.modelBytes,
      external: false,
    };
  }

  onLoadedChange(listener: (loaded: boolean) => void): () => void {
    return this.loaded.onChange(listener);
  }

  async dispose(): Promise<void> {
    this.idle.dispose();
    await this.host.dispose();
    this.loaded.set(false);
  }
}
