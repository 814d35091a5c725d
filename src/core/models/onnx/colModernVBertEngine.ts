/*
 * ColModernVBERT on ONNX Runtime, inside the page embedder's host process: reads the export's files,
 * opens a session (CoreML on macOS when it can run the model, else the CPU), and embeds page images
 * and queries into unit-length 128-d vectors, one per token.
 */
import * as ort from 'onnxruntime-node';
import { QuireError } from '../../../shared/errors';
import { colModernVBertSettings, type ColModernVBertSettings } from './colModernVBertSettings';
import { PromptTokenizer, type TokenBatch } from './colModernVBertPrompts';
import { preprocessImage } from './idefics3Images';
import { maskedUnitRows, type MultiVector } from './multiVectorOutput';
import { readPageEmbedderFiles } from './pageEmbedderFiles';

export interface OnnxPageEmbedderLoadOptions {
  modelPath: string;
  /** CPU threads for one run; 0 lets ONNX Runtime decide. Defaults to 0. */
  threads?: number;
  /** `'auto'` tries CoreML on macOS first; `false` uses the CPU only. Defaults to `'auto'`. */
  accelerator?: 'auto' | false;
}

export interface OnnxPageEmbedderInfo {
  modelPath: string;
  dimensions: number;
  executionProvider: 'coreml' | 'cpu';
  /** Why the accelerator was not used, when it was tried and failed. */
  acceleratorProblem: string | null;
}

export interface EmbedOutput extends MultiVector {
  /** For images: the tile grid the page was cut into (0 x 0 for a single tile). */
  rows?: number;
  cols?: number;
}

export class ColModernVBertEngine {
  private session: ort.InferenceSession | null = null;
  private tokenizer: PromptTokenizer | null = null;
  private settings: ColModernVBertSettings | null = null;
  private dimensions = 0;

  async load(options: OnnxPageEmbedderLoadOptions): Promise<OnnxPageEmbedderInfo> {
    const files = await readPageEmbedderFiles(options.modelPath);
    this.settings = colModernVBertSettings(files);
    this.tokenizer = new PromptTokenizer(files.tokenizer, files.tokenizerConfig, this.settings.text);
    const tryAccelerator = (options.accelerator ?? 'auto') === 'auto' && process.platform === 'darwin';
    let acceleratorProblem: string | null = null;
    if (tryAccelerator) {
      try {
        await this.open(options, ['coreml', 'cpu']);
        return this.info(options.modelPath, 'coreml', null);
      } catch (error) {
        acceleratorProblem = error instanceof Error ? error.message : String(error);
        await this.releaseSession();
      }
    }
    await this.open(options, ['cpu']);
    return this.info(options.modelPath, 'cpu', acceleratorProblem);
  }

  /** One page image per call: a page is up to a dozen tiles, and padding several pages to one shape wastes memory. */
  async embedImage(image: Uint8Array, signal?: AbortSignal): Promise<EmbedOutput> {
    const { session, tokenizer, settings } = this.ready();
    const pre = await preprocessImage(image, settings.image);
    signal?.throwIfAborted();
    const ids = tokenizer.imageIds(pre.rows, pre.cols, pre.tiles);
    const tokens = tokenizer.batch([ids]);
    const pixels = new ort.Tensor('float32', pre.pixels, [1, pre.tiles, 3, pre.tileSize, pre.tileSize]);
    const [vectors] = await this.run(session, tokens, pixels);
    return { ...vectors!, rows: pre.rows, cols: pre.cols };
  }

  /**
   * Queries in one batch, padded the tokenizer's way. Text-only inputs carry an all-zero image per
   * token position, as the reference implementation feeds the export; the model drops all-zero images.
   */
  async embedQueries(queries: string[], signal?: AbortSignal): Promise<EmbedOutput[]> {
    const { session, tokenizer, settings } = this.ready();
    if (queries.length === 0) return [];
    const tokens = tokenizer.batch(queries.map((query) => tokenizer.queryIds(query)));
    signal?.throwIfAborted();
    const size = settings.text.visionImageSize;
    const pixels = new ort.Tensor(
      'float32',
      new Float32Array(tokens.batch * tokens.length * 3 * size * size),
      [tokens.batch, tokens.length, 3, size, size],
    );
    return this.run(session, tokens, pixels);
  }

  async dispose(): Promise<void> {
    await this.releaseSession();
    this.tokenizer = null;
    this.settings = null;
  }

  private async open(
    options: OnnxPageEmbedderLoadOptions,
    providers: Array<'coreml' | 'cpu'>,
  ): Promise<void> {
    try {
      this.session = await ort.InferenceSession.create(options.modelPath, {
        executionProviders: providers,
        intraOpNumThreads: options.threads ?? 0,
        interOpNumThreads: 1,
        graphOptimizationLevel: 'all',
      });
    } catch (error) {
      throw new QuireError(
        'model_failed',
        `ONNX Runtime could not load ${options.modelPath}: ${error instanceof Error ? error.message : String(error)}`,
        { modelPath: options.modelPath },
      );
    }
    const inputs = new Set(this.session.inputNames);
    const missing = ['input_ids', 'attention_mask', 'pixel_values'].filter((name) => !inputs.has(name));
    if (missing.length > 0) {
      throw new QuireError(
        'model_failed',
        `${options.modelPath} is not a page embedder: it lacks the input(s) ${missing.join(', ')}.`,
        { modelPath: options.modelPath },
      );
    }
    // One short query proves the model runs here and tells the vector size.
    const [probe] = await this.embedQueries(['page']);
    this.dimensions = probe!.values.length / Math.max(1, probe!.count);
    if (!Number.isInteger(this.dimensions) || this.dimensions <= 0) {
      throw new QuireError('model_failed', `${options.modelPath} returned no vectors for a test query.`);
    }
  }

  private async run(
    session: ort.InferenceSession,
    tokens: TokenBatch,
    pixels: ort.Tensor,
  ): Promise<MultiVector[]> {
    const feeds: Record<string, ort.Tensor> = {
      input_ids: new ort.Tensor('int64', tokens.inputIds, [tokens.batch, tokens.length]),
      attention_mask: new ort.Tensor('int64', tokens.attentionMask, [tokens.batch, tokens.length]),
      pixel_values: pixels,
    };
    const results = await session.run(feeds);
    const output = results[session.outputNames[0]!];
    if (!output || output.type !== 'float32' || output.dims.length !== 3) {
      throw new QuireError(
        'model_failed',
        'The page embedder returned no [batch, tokens, dimensions] float output.',
      );
    }
    const [batch, length, dimensions] = output.dims.map(Number) as [number, number, number];
    if (batch !== tokens.batch || length !== tokens.length) {
      throw new QuireError(
        'model_failed',
        `The page embedder returned ${batch}x${length} vectors for ${tokens.batch}x${tokens.length} tokens.`,
      );
    }
    const vectors = maskedUnitRows(
      output.data as Float32Array,
      tokens.attentionMask,
      batch,
      length,
      dimensions,
    );
    for (const value of Object.values(results)) value.dispose();
    return vectors;
  }

  private ready(): {
    session: ort.InferenceSession;
    tokenizer: PromptTokenizer;
    settings: ColModernVBertSettings;
  } {
    if (!this.session || !this.tokenizer || !this.settings) {
      throw new QuireError('model_unavailable', 'The page embedder is not loaded.');
    }
    return { session: this.session, tokenizer: this.tokenizer, settings: this.settings };
  }

  private info(
    modelPath: string,
    executionProvider: 'coreml' | 'cpu',
    acceleratorProblem: string | null,
  ): OnnxPageEmbedderInfo {
    return { modelPath, dimensions: this.dimensions, executionProvider, acceleratorProblem };
  }

  private async releaseSession(): Promise<void> {
    const session = this.session;
    this.session = null;
    await session?.release().catch(() => undefined);
  }
}
