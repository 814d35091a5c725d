/*
 * An in-process page embedder: an ONNX late-interaction model (ColModernVBERT) run by ONNX Runtime in
 * its own host process. It reads page images, not text, so pages without a drawn image are declined.
 */
import { createHash } from 'node:crypto';
import { open, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import type { MemoryEntry } from '../../../shared/domain/models';
import { HostClient, type HostCallOptions } from '../host/hostClient';
import { IdleRelease } from '../host/idleRelease';
import { LoadedState } from '../host/loadedState';
import type { CallOptions, PageEmbedder, PageInput } from '../types';
import type { EmbedOutput, OnnxPageEmbedderInfo, OnnxPageEmbedderLoadOptions } from './colModernVBertEngine';
import { readPageEmbedderFiles } from './pageEmbedderFiles';
import type { PageEmbedderRequest } from './protocol';

export interface OnnxPageEmbedderOptions extends OnnxPageEmbedderLoadOptions {
  /** Longest one page or query may take. Defaults to 5 minutes (a large page on a slow CPU). */
  timeoutMs?: number;
  loadTimeoutMs?: number;
  /** Its host process exits after this long without work, giving the memory back; the next call reloads. */
  idleUnloadMs?: number | undefined;
}

class PageEmbedderHost extends HostClient<PageEmbedderRequest, OnnxPageEmbedderInfo> {
  constructor(options: OnnxPageEmbedderOptions) {
    super({
      entry: { callerUrl: import.meta.url, path: './pageEmbedder.child.ts' },
      subject: options.modelPath,
      load: { type: 'load', options: { ...loadOptions(options) } },
      ...(options.loadTimeoutMs === undefined ? {} : { loadTimeoutMs: options.loadTimeoutMs }),
    });
  }

  async embedImage(image: Uint8Array, options: HostCallOptions): Promise<EmbedOutput> {
    return (await this.work({ type: 'embedImage', image }, options)) as EmbedOutput;
  }

  async embedQueries(queries: string[], options: HostCallOptions): Promise<EmbedOutput[]> {
    return (await this.work({ type: 'embedQueries', queries }, options)) as EmbedOutput[];
  }
}

function loadOptions(options: OnnxPageEmbedderOptions): OnnxPageEmbedderLoadOptions {
  return {
    modelPath: options.modelPath,
    ...(options.threads === undefined ? {} : { threads: options.threads }),
    ...(options.accelerator === undefined ? {} : { accelerator: options.accelerator }),
  };
}

/**
 * A short fingerprint of the model file (its size and its first and last MiB): the id vectors are
 * stored under, so a renamed copy keeps its vectors and a different model never mixes with them.
 */
export async function fingerprint(path: string): Promise<{ digest: string; bytes: number }> {
  const { size } = await stat(path);
  const hash = createHash('sha256').update(String(size));
  const file = await open(path, 'r');
  try {
    const window = Math.min(size, 1 << 20);
    for (const position of [0, Math.max(0, size - window)]) {
      const buffer = Buffer.alloc(window);
      await file.read(buffer, 0, window, position);
      hash.update(buffer);
    }
  } finally {
    await file.close();
  }
  return { digest: hash.digest('hex').slice(0, 12), bytes: size };
}

function rows(output: EmbedOutput, dimensions: number): Float32Array[] {
  const vectors: Float32Array[] = [];
  for (let i = 0; i < output.count; i++)
    vectors.push(output.values.slice(i * dimensions, (i + 1) * dimensions));
  return vectors;
}

export class OnnxPageEmbedder implements PageEmbedder {
  private readonly loaded = new LoadedState(true);
  private readonly idle: IdleRelease;

  private constructor(
    readonly id: string,
    readonly dimensions: number,
    readonly info: OnnxPageEmbedderInfo,
    private readonly modelBytes: number,
    private readonly host: PageEmbedderHost,
    private readonly timeoutMs: number,
    idleUnloadMs: number | undefined,
  ) {
    this.idle = new IdleRelease(host, this.loaded, idleUnloadMs);
  }

  /**
   * Checks the file and its tokenizer first (a wrong file fails here, before any process starts),
   * then loads it in its host process, which runs a test query to learn the vector size.
   */
  static async create(options: OnnxPageEmbedderOptions): Promise<OnnxPageEmbedder> {
    await readPageEmbedderFiles(options.modelPath);
    const { digest, bytes } = await fingerprint(options.modelPath);
    const host = new PageEmbedderHost(options);
    const info = await host.ensureLoaded();
    const embedder = new OnnxPageEmbedder(
      `onnx:${basename(options.modelPath)}:${digest}`,
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

  async embedPage(page: PageInput, options: CallOptions = {}): Promise<Float32Array[] | null> {
    if (!page.loadImage) return null;
    const image = await page.loadImage();
    const output = await this.idle.run(() =>
      this.host.embedImage(image, { ...options, timeoutMs: this.timeoutMs }),
    );
    return rows(output, this.dimensions);
  }

  async embedQuery(query: string, options: CallOptions = {}): Promise<Float32Array[]> {
    const [output] = await this.idle.run(() =>
      this.host.embedQueries([query], { ...options, timeoutMs: this.timeoutMs }),
    );
    return output ? rows(output, this.dimensions) : [];
  }

  /** What the memory budget counts for this model: its weights, as a file, while its process runs. */
  memoryEntry(): MemoryEntry {
    return {
      id: this.id,
      label: `${basename(this.info.modelPath)} (page embedder, ${this.info.executionProvider === 'coreml' ? 'CoreML' : 'CPU'})`,
      roles: ['pageEmbed'],
      loaded: this.loaded.value,
      weightsBytes: this.modelBytes,
      kvCacheBytes: 0,
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
