import type { Table } from '@lancedb/lancedb';
import type { Schema } from 'apache-arrow';

import { QuireError } from '../../../shared/errors';
import { chunkVectorsSchema, pageVectorsSchema, type VectorKind } from '../schema';
import type { IndexTables } from '../tables';
import { pageVectorRow } from './pageVectorCells';
import { checkedVector, type AnyEmbedder, type PageEmbedder, type TextEmbedder } from './embedders';

type Row = Record<string, unknown>;

/**
 * How one kind of content becomes vectors for one embedder: which content rows to read, how to ask
 * the embedder, and the rows of its vector table. Each embedder's vectors live in their own table.
 */
export interface VectorWriter<E extends AnyEmbedder = AnyEmbedder> {
  readonly kind: VectorKind;
  /** The column of the vector table that names the content row. */
  readonly key: 'chunk_id' | 'page_id';
  /** The content table whose rows get vectors. */
  source(tables: IndexTables): Table;
  /** Columns of the content rows `embed` reads. */
  readonly columns: string[];
  schema(dimensions: number): Schema;
  /** Vector rows for these content rows. */
  embed(rows: Row[], embedder: E, dimensions: number, signal: AbortSignal | undefined): Promise<Row[]>;
}

/** Chunks: one dense vector of the text BM25 also reads (text, heading, title, file name). */
export const chunkVectorWriter: VectorWriter<TextEmbedder> = {
  kind: 'text',
  key: 'chunk_id',
  source: (tables) => tables.chunks,
  columns: ['id', 'content_hash', 'search_text'],
  schema: chunkVectorsSchema,
  async embed(rows, embedder, dimensions, signal) {
    const vectors = await embedder.embed(
      rows.map((row) => String(row.search_text)),
      signal ? { signal } : {},
    );
    if (vectors.length !== rows.length) {
      throw new QuireError(
        'model_failed',
        `Embedder ${embedder.id} returned ${vectors.length} vectors for ${rows.length} texts.`,
      );
    }
    return rows.map((row, i) => ({
      chunk_id: row.id,
      content_hash: row.content_hash,
      vector: checkedVector(vectors[i]!, dimensions, embedder.id),
    }));
  },
};

/**
 * Pages: many vectors per page from the page's text lines and, for embedders that read pixels, its
 * stored image. An embedder that declines a page gets an empty list, so the page is not retried.
 */
export function pageVectorWriter(
  loadPageImage: ((relativePath: string) => Promise<Uint8Array>) | undefined,
): VectorWriter<PageEmbedder> {
  return {
    kind: 'page',
    key: 'page_id',
    source: (tables) => tables.pages,
    columns: ['id', 'content_hash', 'text', 'image_full'],
    schema: pageVectorsSchema,
    async embed(rows, embedder, dimensions, signal) {
      const out: Row[] = [];
      for (const row of rows) {
        signal?.throwIfAborted();
        const image = row.image_full as string | null;
        const segments = String(row.text)
          .split(/\n+/)
          .map((line) => line.trim())
          .filter(Boolean);
        const vectors = await embedder.embedPage(
          { segments, ...(image && loadPageImage ? { loadImage: () => loadPageImage(image) } : {}) },
          signal ? { signal } : {},
        );
        const checked = (vectors ?? []).map((vector) => checkedVector(vector, dimensions, embedder.id));
        out.push(pageVectorRow(row.id, row.content_hash, checked, dimensions));
      }
      return out;
    },
  };
}
