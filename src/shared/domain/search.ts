import { z } from 'zod';

/** A rectangle in PDF page coordinates (points, origin top-left, y down). */
export const BoundingBox = z.object({
  x: z.number(),
  y: z.number(),
  width: z.number(),
  height: z.number(),
});
export type BoundingBox = z.infer<typeof BoundingBox>;

/** Where a page's text came from: its own text layer, OCR (engine, languages, confidence) or nothing. */
export const PageTextSource = z.object({
  method: z.enum(['layer', 'ocr', 'none']),
  engine: z.string().optional(),
  confidence: z.number().min(0).max(1).optional(),
  languages: z.array(z.string()).optional(),
  ocr: z
    .object({
      reason: z.enum(['missing', 'invisible', 'garbled', 'partial']),
      engine: z.string(),
      languages: z.array(z.string()),
      confidence: z.number().min(0).max(1).nullable(),
      words: z.number().int().nonnegative(),
      problem: z.string().nullable(),
      transcribedBy: z.string().optional(),
      /** True when no check could tell which way up the scan is: its turn is the likelier guess. */
      orientationGuessed: z.boolean().optional(),
    })
    .optional(),
  /**
   * The earlier page this one repeats: the file lists one page object twice or more, so its text is
   * that page's, read and searchable once, and its image is that page's image.
   */
  repeatOf: z.number().int().positive().optional(),
});
export type PageTextSource = z.infer<typeof PageTextSource>;

export const SearchMode = z.enum(['bm25', 'dense', 'hybrid', 'pages']);
export type SearchMode = z.infer<typeof SearchMode>;

export const SearchHit = z.object({
  documentId: z.string(),
  path: z.string(),
  /** 1-based. */
  page: z.number().int().positive(),
  chunkId: z.string().nullable(),
  score: z.number(),
  snippet: z.string(),
  boxes: z.array(BoundingBox),
  mode: SearchMode,
});
export type SearchHit = z.infer<typeof SearchHit>;

/** What a text search returned, the mode that actually ran, and why it differs from the one asked for. */
export const ChunkSearchResult = z.object({
  hits: z.array(SearchHit),
  mode: SearchMode,
  /** Set when the search ran differently from what was asked (e.g. BM25 only: no embeddings). */
  notice: z.string().nullable(),
  /** What was searched, in the user's words ("the whole library", a folder, a collection). */
  searched: z.string().optional(),
});
export type ChunkSearchResult = z.infer<typeof ChunkSearchResult>;

/** A search's hits and how they were found. */
export const SearchResult = z.object({
  hits: z.array(SearchHit),
  /** The wordings searched and fused, the query first. */
  forms: z.array(
    z.object({ kind: z.enum(['question', 'keywords', 'subquestion', 'rewritten']), text: z.string() }),
  ),
  rerankedBy: z.enum(['reranker', 'listwise']).nullable(),
  /** What fell back or was skipped (e.g. the reranker ran out of time). */
  notes: z.array(z.string()),
  /** What was searched, in the user's words. */
  searched: z.string().optional(),
});
export type SearchResult = z.infer<typeof SearchResult>;

export const PageImage = z.object({
  documentId: z.string(),
  page: z.number().int().positive(),
  /** Page size in PDF points, so boxes can be scaled onto the image. */
  pageWidth: z.number().positive(),
  pageHeight: z.number().positive(),
  size: z.enum(['full', 'thumbnail']),
  /**
   * Which drawing of the page: with the id, page and size it makes the image's address
   * (`shared/domain/pageImageAddress.ts`); the bytes travel over the app's scheme or the server's route.
   */
  version: z.string().regex(/^[0-9a-f]{8,64}$/),
  /** Where the page's text came from, shown beside the page ("Text recognised by OCR, 91% confidence"). */
  textSource: PageTextSource.nullable().optional(),
});
export type PageImage = z.infer<typeof PageImage>;
