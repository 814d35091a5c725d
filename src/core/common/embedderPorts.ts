/*
 * What an embedder is, to the index that stores its vectors and to the models layer that runs it.
 * Neither layer may import the other, so the shapes they meet on live here, declared once.
 */

export interface EmbedCallOptions {
  /** Cancels the call; providers free the sequence/context or close the stream at once. */
  signal?: AbortSignal;
}

export interface TextEmbedCallOptions extends EmbedCallOptions {
  /**
   * What the texts are: models trained with instructions (e5, bge) embed a search query differently
   * from the passages it should find. Defaults to `passage`; embedders without instructions ignore it.
   */
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
