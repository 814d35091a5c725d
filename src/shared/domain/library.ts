import { z } from 'zod';

export const DocumentKind = z.enum([
  'pdf',
  'markdown',
  'text',
  'docx',
  'doc',
  'pptx',
  'ppt',
  'xlsx',
  'xls',
  'odt',
  'odp',
  'ods',
  'html',
  'epub',
  'image',
]);
export type DocumentKind = z.infer<typeof DocumentKind>;

/**
 * Where a file is in its life: `listed` (seen, page count read), `queued`/`indexing` (ingestion),
 * `indexed`, or one of the end states that need the user: `needsPassword`, `failed`, `quarantined`,
 * `unsupported` (a format Quire does not read; the error says what to do), `awaitingOcr` (a picture
 * whose text waits for text recognition).
 */
export const DocumentState = z.enum([
  'listed',
  'queued',
  'indexing',
  'indexed',
  'needsPassword',
  'failed',
  'quarantined',
  'unsupported',
  'awaitingOcr',
]);
export type DocumentState = z.infer<typeof DocumentState>;

export const DocumentInfo = z.object({
  id: z.string(),
  rootId: z.string(),
  path: z.string(),
  relativePath: z.string(),
  kind: DocumentKind,
  bytes: z.number().int().nonnegative(),
  modifiedMs: z.number(),
  pages: z.number().int().nonnegative().nullable(),
  state: DocumentState,
  error: z.string().nullable(),
});
export type DocumentInfo = z.infer<typeof DocumentInfo>;

export const LibraryRoot = z.object({
  id: z.string(),
  path: z.string(),
  addedAt: z.string(),
  /** Set when the folder vanished or became unreadable after it was added. */
  error: z.string().nullable(),
});
export type LibraryRoot = z.infer<typeof LibraryRoot>;

/** A file in a library folder that Quire does not read, e.g. a link that leads outside the library. */
export const SkippedFile = z.object({
  rootId: z.string(),
  path: z.string(),
  /** Why, in words shown to the user. */
  reason: z.string(),
});
export type SkippedFile = z.infer<typeof SkippedFile>;

export const LibrarySnapshot = z.object({
  roots: z.array(LibraryRoot),
  documents: z.array(DocumentInfo),
  skipped: z.array(SkippedFile).default([]),
  /** True while the initial scan of some root is still running. */
  scanning: z.boolean(),
});
export type LibrarySnapshot = z.infer<typeof LibrarySnapshot>;

export const IndexProgress = z.object({
  filesDone: z.number().int().nonnegative(),
  filesTotal: z.number().int().nonnegative(),
  pagesDone: z.number().int().nonnegative(),
  pagesTotal: z.number().int().nonnegative(),
  pagesPerSecond: z.number().nonnegative(),
  etaSeconds: z.number().nonnegative().nullable(),
  /** Pages of indexed files whose images are still to be drawn (after every file's text). */
  pagesToDraw: z.number().int().nonnegative(),
  paused: z.boolean(),
  currentPath: z.string().nullable(),
});
export type IndexProgress = z.infer<typeof IndexProgress>;
