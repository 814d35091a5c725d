import { isAbortError } from '../../shared/errors';
import type { VectorSets } from '../index/vectors/indexVectors';
import type { ModelRoles } from '../models/types';

/**
 * Keeps the index's vectors in step with the embedders the models layer resolves: after new content
 * is indexed or the embedders change, it embeds what is missing, one pass at a time, in the
 * background. Search keeps working on BM25 (or the previous vectors) meanwhile.
 */
export class BackgroundEmbedding {
  private running: Promise<void> | null = null;
  private again = false;
  private readonly controller = new AbortController();

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
      }
    });
  }

  async close(): Promise<void> {
    this.controller.abort();
    await this.running?.catch(() => undefined);
  }

  private async pass(): Promise<void> {
    try {
      const [text, page] = await Promise.all([this.models.textEmbedder(), this.models.pageEmbedder()]);
      await this.vectors.setEmbedders({ text, page });
      if (!text && !page) return;
      await this.vectors.embedPending({ signal: this.controller.signal });
    } catch (error) {
      if (!isAbortError(error)) console.error('quire: embedding in the background failed', error);
    }
  }
}
