import { QuireError } from '../../../shared/errors';

import type { PageEmbedder, TextEmbedder } from '../../common/embedderPorts';

// The embedder shapes are declared once, below both the index and the models layer.
export type {
  EmbedCallOptions,
  PageEmbedder,
  PageInput,
  TextEmbedCallOptions,
  TextEmbedder,
} from '../../common/embedderPorts';

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
