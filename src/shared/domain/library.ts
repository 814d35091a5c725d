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
 * `unsupported` (a format Quire does not read; the error says what to do).
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
]);
export type DocumentState = z.infer<typeof DocumentState>;

/** How a document's scanned pages were read; null on a document whose text layer was enough. */
export const DocumentOcr = z.object({
  /** Pages whose text layer was missing or not enough. */
  pagesNeedingOcr: z.number().int().nonnegative(),
  /** Pages whose text now comes from OCR. */
  pagesRead: z.number().int().nonnegative(),
  /** Pages OCR ran on and could not read: they have no text. */
  pagesUnreadable: z.number().int().nonnegative(),
  /** Pages still waiting for OCR (it is running, or it is off). */
  pagesWaiting: z.number().int().nonnegative(),
  /** Mean confidence over the pages read, 0..1. */
  confidence: z.number().min(0).max(1).nullable(),
  /** The engine (or vision model) that read them. */
  engine: z.string().nullable(),
});
export type DocumentOcr = z.infer<typeof DocumentOcr>;

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
  /** How scanned pages were read (OCR); null when no page needed it or the file is not read yet. */
  ocr: DocumentOcr.nullable().optional(),
  /** ISO 639-3 code of its text (`und`: too little text to tell); absent or null until it is read. */
  language: z.string().max(16).nullable().optional(),
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

/**
 * The library as `library.list` returns it: a snapshot and the revision the next change starts from.
 * Asked with a `limit`, only the first documents in library order come, and `omitted` counts the rest:
 * a window paints those while the whole listing is on its way.
 */
export const LibraryListing = LibrarySnapshot.extend({
  revision: z.number().int().nonnegative(),
  omitted: z.number().int().positive().optional(),
});
export type LibraryListing = z.infer<typeof LibraryListing>;

/**
 * What changed in the library since revision `from`: the small parts whole (folders, skipped files),
 * the documents that were added or changed, and the ids of those that left. A client whose listing is
 * not at `from` asks for `library.list` again instead of applying it.
 */
export const LibraryChange = z.object({
  from: z.number().int().nonnegative(),
  to: z.number().int().positive(),
  roots: z.array(LibraryRoot),
  skipped: z.array(SkippedFile),
  scanning: z.boolean(),
  documents: z.array(DocumentInfo),
  removed: z.array(z.string()),
});
export type LibraryChange = z.infer<typeof LibraryChange>;

/** The kinds of work indexing does, each reported on its own line. */
export const WorkKind = z.enum(['text', 'ocr', 'images', 'pageVectors']);
export type WorkKind = z.infer<typeof WorkKind>;

/** One kind of work: pages done of the total in this busy period, its measured speed and ETA. */
export const WorkLine = z.object({
  kind: WorkKind,
  pagesDone: z.number().int().nonnegative(),
  pagesTotal: z.number().int().nonnegative(),
  pagesPerSecond: z.number().nonnegative(),
  /** Null until the speed has been measured. */
  etaSeconds: z.number().nonnegative().nullable(),
  /** The file this kind of work is on now; null between files. */
  currentPath: z.string().nullable(),
});
export type WorkLine = z.infer<typeof WorkLine>;

export const IndexProgress = z.object({
  filesDone: z.number().int().nonnegative(),
  filesTotal: z.number().int().nonnegative(),
  pagesDone: z.number().int().nonnegative(),
  pagesTotal: z.number().int().nonnegative(),
  pagesPerSecond: z.number().nonnegative(),
  etaSeconds: z.number().nonnegative().nullable(),
  /** Pages of indexed files whose images are still to be drawn (after every file's text). */
  pagesToDraw: z.number().int().nonnegative(),
  /** Scanned pages still to be read by OCR (after every file's text). */
  pagesToRecognize: z.number().int().nonnegative().default(0),
  paused: z.boolean(),
  /** Why indexing stopped on its own (the disk is full), in words; null while it runs or the user paused it. */
  stopped: z.string().nullable().default(null),
  currentPath: z.string().nullable(),
  /** One line per kind of work still going on (or just finished) in this busy period. */
  work: z.array(WorkLine).default([]),
});
export type IndexProgress = z.infer<typeof IndexProgress>;

/** How scanned pages are read. */
export const OcrSettings = z.object({
  /** Read pages whose text layer is missing or not enough; off, they stay without text. */
  enabled: z.boolean(),
  /** `auto` picks the measured default (Tesseract); `system` is the OS engine (macOS Vision). */
  engine: z.enum(['auto', 'tesseract', 'system']),
  /** Tesseract language codes, e.g. ['eng'] or ['eng', 'fra']; English by default. */
  languages: z
    .array(z.string().regex(/^[a-z]{3}$/))
    .min(1)
    .max(4),
});
export type OcrSettings = z.infer<typeof OcrSettings>;

/** The settings and what this machine offers to choose from. */
export const OcrSettingsView = z.object({
  settings: OcrSettings,
  engines: z.array(z.object({ id: OcrSettings.shape.engine, label: z.string() })),
  languages: z.array(z.object({ code: z.string(), label: z.string() })),
  /** Which model reads pages now, in the user's words: Tesseract's fast model, or why the packaged one. */
  model: z.object({ fast: z.boolean(), description: z.string() }),
});
export type OcrSettingsView = z.infer<typeof OcrSettingsView>;
