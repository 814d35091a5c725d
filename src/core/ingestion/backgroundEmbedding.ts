import { isAbortError } from '../../shared/errors';
import { Emitter } from '../common/emitter';
import type { EmbedPendingOptions, VectorSets } from '../index/vectors/indexVectors';
import type { ModelRoles } from '../models/types';

export type EmbeddingProgress = Parameters<NonNullable<EmbedPendingOptions['onProgress']>>[0];

export type BackgroundEmbeddingEvents = {
  progress: EmbeddingProgress;
  /** An embedder that could not load or failed mid-way; the other kind carries on. */
  problem: { kind: 'text' | 'page'; message: string };
};

/**
 * Keeps the index's vectors in step with the embedders the models layer resolves: after new content
 * is indexed or the embedders change, it embeds what is missing, one pass at a time, in the
 * background, text first, then pages. Search keeps working on BM25 (or the previous vectors)
 * meanwhile, and says so; page search works on the pages embedded so far.
 */
export class BackgroundEmbedding {
  readonly events = new Emitter<BackgroundEmbeddingEvents>();
  private running: Promise<void> | null = null;
  private again = false;
  private readonly controller = new AbortController();
  private readonly idleWaiters: Array<() => void> = [];

  constructor(
    private readonly vectors: VectorSets,
    private readonly models: Pick<ModelRoles, 'textEmbedder' | 'pageEmbedder'>,
  ) {}

  /** Asks for a pass; passes requested while one runs collapse into one more. */
  request(): void {
    if (this.controller.signal.aborted) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.pass().finally(() => {
      this.running = null;
      if (this.again) {
        this.again = false;
        this.request();
      } else {
        for (const resolve of this.idleWaiters.splice(0)) resolve();
      }
    });
  }

  /**
   * Hands the resolved embedders to the index without embedding anything, so searches use the
   * vectors already there (one-shot commands that must not start a long pass).
   */
  async attach(): Promise<void> {
    const [text, page] = await Promise.all([this.models.textEmbedder(), this.models.pageEmbedder()]);
    this.vectors.attach({ text, page });
  }

  /** Resolves once no pass runs or is asked for. */
  whenIdle(): Promise<void> {
    if (!this.running) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  async dispose(): Promise<void> {
    this.controller.abort();
    await this.running?.catch(() => undefined);
    for (const resolve of this.idleWaiters.splice(0)) resolve();
    this.events.clear();
  }

  private async pass(): Promise<void> {
    try {
      const [text, page] = await Promise.all([
        this.loaded('text', () => this.models.textEmbedder()),
        this.loaded('page', () => this.models.pageEmbedder()),
      ]);
      await this.vectors.setEmbedders({ text, page });
      if (!text && !page) return;
      await this.vectors.embedPending({
        signal: this.controller.signal,
        onProgress: (progress) => this.events.emit('progress', progress),
      });
    } catch (error) {
      if (isAbortError(error)) return;
      console.error('quire: embedding in the background failed', error);
      this.events.emit('problem', {
        kind: 'page',
        message: error instanceof Error ? error.message : String(error),
      });
    }
  }

  /** An embedder that fails to load is reported and left out of this pass; the other kind goes on. */
  private async loaded<T>(kind: 'text' | 'page', load: () => Promise<T | null>): Promise<T | null> {
    try {
      return await load();
    } catch (error) {
      if (isAbortError(error)) throw error;
      this.events.emit('problem', { kind, message: error instanceof Error ? error.message : String(error) });
      return null;
    }
  }
}
