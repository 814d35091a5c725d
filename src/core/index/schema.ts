import { createHash } from 'node:crypto';
import type { Schema as ArrowSchema } from 'apache-arrow';
import { Binary, Bool, Field, FixedSizeList, Float32, Float64, Int32, Schema, Utf8 } from './arrowTypes';

/*
 * The layout of the index. Column names are snake_case because LanceDB's SQL folds unquoted
 * identifiers to lower case. Content tables are keyed by the file's sha256, so identical or renamed
 * files share rows and only their `documents` row differs.
 */

export const SCHEMA_VERSION = 5;

export const TABLES = {
  meta: 'meta',
  documents: 'documents',
  chunks: 'chunks',
  pages: 'pages',
} as const;

const text = (name: string, nullable = false) => new Field(name, new Utf8(), nullable);
const int = (name: string, nullable = false) => new Field(name, new Int32(), nullable);
const float = (name: string, nullable = false) => new Field(name, new Float64(), nullable);

export const metaSchema = new Schema([text('key'), text('value')]);

export const documentsSchema = new Schema([
  text('id'),
  text('path'),
  text('root_id'),
  text('content_hash', true),
  text('kind'),
  text('title', true),
  int('pages', true),
  float('bytes'),
  float('modified_ms'),
  text('state'),
  text('error', true),
  float('indexed_at', true),
  /** ISO 639-3 code, `und` when too little text to tell; null until detected (rows before version 5). */
  text('language', true),
]);

export const chunksSchema = new Schema([
  text('id'),
  text('content_hash'),
  int('chunk_index'),
  int('page'),
  text('text'),
  text('heading', true),
  int('char_start'),
  int('char_end'),
  text('boxes'),
  /** What BM25 reads: the chunk text plus its title, heading and file name. */
  text('search_text'),
]);

export const pagesSchema = new Schema([
  text('id'),
  text('content_hash'),
  int('page'),
  float('width'),
  float('height'),
  new Field('needs_ocr', new Bool(), false),
  text('image_full', true),
  text('image_thumbnail', true),
  int('image_width', true),
  int('image_height', true),
  text('text'),
  /** Where the page's text came from (JSON of PageTextSource); null when the reader did not say. */
  text('text_source', true),
]);

const vectorOf = (dimensions: number) =>
  new FixedSizeList(dimensions, new Field('item', new Float32(), true));

export function chunkVectorsSchema(dimensions: number): ArrowSchema {
  return new Schema([
    text('chunk_id'),
    text('content_hash'),
    new Field('vector', vectorOf(dimensions), false),
  ]);
}

/**
 * A page's vectors as one cell: `vector_count` unit-length rows of `dimensions` little-endian fp16
 * values (half the bytes of float32 lists; the full precision search re-codes from). A count of 0
 * marks a page the embedder declined (no text, no image reader), so it is not retried. Both columns
 * are nullable only because the version 4 migration adds them to existing tables.
 */
export function pageVectorsSchema(_dimensions: number): ArrowSchema {
  return new Schema([
    text('page_id'),
    text('content_hash'),
    int('vector_count', true),
    new Field('vectors_f16', new Binary(), true),
  ]);
}

export type VectorKind = 'text' | 'page';

/** A table name per embedder: readable, safe for any storage URI, and distinct per id and size. */
export function vectorTableName(kind: VectorKind, embedderId: string, dimensions: number): string {
  const readable = embedderId
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 40);
  const digest = createHash('sha256').update(embedderId).digest('hex').slice(0, 8);
  const prefix = kind === 'text' ? 'chunk_vectors' : 'page_vectors';
  return `${prefix}__${readable}_${dimensions}_${digest}`;
}

export const chunkId = (contentHash: string, index: number) => `${contentHash}:${index}`;
export const pageId = (contentHash: string, page: number) => `${contentHash}:${page}`;
