import { QuireError } from '../../../shared/errors';

/*
 * What the index asks of an embedder. The models layer's providers match these shapes; the index
 * never names a provider, and the composition root hands the embedders in.
 */

export interface EmbedCallOptions {
  signal?: AbortSignal;
}

/** A search query is embedded as one (`query`); stored text as passages, the default. */
export interface TextEmbedCallOptions extends EmbedCallOptions {
  kind?: 'query' | 'passage';
}

/** Dense text embeddings: one vector per text. */
export interface TextEmbedder {
  /** Stored with every vector: vectors of different ids are never compared. */
  readonly id: string;
  readonly dimensions: number;
  embed(texts: string[], options?: TextEmbedCallOptions): Promise<Float32Array[]>;
}

/** What a page embedder may look at. */
export interface PageInput {
  /** The page text split into segments (lines); empty for a page with no text. */
  segments: string[];
  /** Loads the stored page image (WebP), for embedders that read pixels; absent before it is drawn. */
  loadImage?: () => Promise<Uint8Array>;
}

/** Late-interaction (ColPali-style) embeddings: many vectors per page and per query. */
export interface PageEmbedder {
  readonly id: string;
  readonly dimensions: number;
  /** Null when this embedder cannot embed the page (e.g. a text-based embedder on a page with no text). */
  embedPage(page: PageInput, options?: EmbedCallOptions): Promise<Float32Array[] | null>;
  embedQuery(query: string, options?: EmbedCallOptions): Promise<Float32Array[]>;
}

export type AnyEmbedder = TextEmbedder | PageEmbedder;

/** Rejects a vector of the wrong size or with non-finite values, naming the embedder. */
export function checkedVector(vector: Float32Array, dimensions: number, embedderId: string): Float32Array {
  if (vector.length !== dimensions || !vector.every(Number.isFinite)) {
    throw new QuireError(
      'model_failed',
      `Embedder ${embedderId} returned a vector that is not ${dimensions} finite numbers.`,
    );
  }
  return vector;
}
