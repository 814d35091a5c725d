import { z } from 'zod';

import { DocumentKind, DocumentState } from '../../shared/domain/library';
import { BoundingBox, PageTextSource as SharedPageTextSource } from '../../shared/domain/search';

/*
 * The records the index hands out and accepts, and their mapping to table rows.
 */

/** One file in the library. Its content rows are found through `contentHash`. */
export const IndexedDocument = z.object({
  id: z.string().min(1),
  path: z.string().min(1),
  rootId: z.string(),
  /** sha256 of the file; null while it has not been read. */
  contentHash: z
    .string()
    .regex(/^[0-9a-f]{16,128}$/, 'contentHash must be a lower-case hex digest')
    .nullable(),
  kind: DocumentKind,
  title: z.string().nullable(),
  pages: z.number().int().nonnegative().nullable(),
  bytes: z.number().nonnegative(),
  modifiedMs: z.number(),
  state: DocumentState,
  error: z.string().nullable(),
  /** When the document last became `indexed` (ms since the epoch). */
  indexedAt: z.number().nullable(),
  /** ISO 639-3 code of its text, `und` when too little to tell; null or absent until detected. */
  language: z.string().min(1).max(16).nullable().optional(),
});
export type IndexedDocument = z.infer<typeof IndexedDocument>;

export interface StoredChunk {
  chunkId: string;
  documentId: string;
  path: string;
  /** 1-based. */
  page: number;
  text: string;
  heading: string | null;
  charStart: number;
  charEnd: number;
  boxes: BoundingBox[];
}

/** Mirrors the readers' PageTextSource; checked when read back from the table. */
const PageTextSource = SharedPageTextSource;
export type StoredTextSource = z.infer<typeof PageTextSource>;

export interface StoredPage {
  documentId: string;
  path: string;
  /** 1-based. */
  page: number;
  width: number;
  height: number;
  needsOcr: boolean;
  text: string;
  /** Where the text came from; null for pages read before this was recorded. */
  textSource: StoredTextSource | null;
  image: { full: string; thumbnail: string; width: number; height: number } | null;
}

export interface IndexStats {
  documents: number;
  indexedDocuments: number;
  chunks: number;
  pages: number;
}

type Row = Record<string, unknown>;

export function documentToRow(doc: IndexedDocument): Row {
  return {
    id: doc.id,
    path: doc.path,
    root_id: doc.rootId,
    content_hash: doc.contentHash,
    kind: doc.kind,
    title: doc.title,
    pages: doc.pages,
    bytes: doc.bytes,
    modified_ms: doc.modifiedMs,
    state: doc.state,
    error: doc.error,
    indexed_at: doc.indexedAt,
    language: doc.language ?? null,
  };
}

export function documentFromRow(row: Row): IndexedDocument {
  return {
    id: String(row.id),
    path: String(row.path),
    rootId: String(row.root_id),
    contentHash: (row.content_hash as string | null) ?? null,
    kind: row.kind as IndexedDocument['kind'],
    title: (row.title as string | null) ?? null,
    pages: (row.pages as number | null) ?? null,
    bytes: Number(row.bytes),
    modifiedMs: Number(row.modified_ms),
    state: row.state as IndexedDocument['state'],
    error: (row.error as string | null) ?? null,
    indexedAt: row.indexed_at == null ? null : Number(row.indexed_at),
    language: (row.language as string | null | undefined) ?? null,
  };
}

export function parseTextSource(json: unknown): StoredTextSource | null {
  if (typeof json !== 'string') return null;
  try {
    const parsed = PageTextSource.safeParse(JSON.parse(json));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export function parseBoxes(json: unknown): BoundingBox[] {
  try {
    const parsed = z.array(BoundingBox).safeParse(JSON.parse(String(json)));
    return parsed.success ? parsed.data : [];
  } catch {
    return [];
  }
}
