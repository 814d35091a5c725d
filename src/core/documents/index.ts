/*
 * The document readers' public surface: parse and render through the worker pool, page images in a
 * content-addressed store. Everything else in this folder is an implementation detail.
 */
export { createDocumentPool, DEFAULT_JOB_TIMEOUT_MS } from './pool/documentPool';
export type {
  DocumentPool,
  DocumentPoolOptions,
  ParseJobOptions,
  RenderJobOptions,
} from './pool/documentPool';
export { PageImageStore } from './render/pageImageStore';
export { DEFAULT_LONG_EDGE, THUMBNAIL_LONG_EDGE } from './render/raster';
export { parseDocument, type ParseOptions } from './parseDocument';
export { MIN_TEXT_CHARS } from './pdf/parsePdf';
export { DEFAULT_CHUNKING, type ChunkingOptions } from './layout/chunker';
export type { PageImageRef, ParsedDocument, ParsedPage, TextChunk } from './types';
export { documentKindOf, FORMAT_READERS, readerFor, type FormatReader } from './readers/formatReaders';
export type { PageTextSource } from './types';
