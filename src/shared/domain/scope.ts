import { z } from 'zod';

const path = z
  .string()
  .min(1)
  .max(4096)
  .refine((p) => !p.includes('\0'), 'Path contains a NUL character.');
const name = z.string().trim().min(1).max(120);

/**
 * What a question or a search may look at: documents (by id), folders (a library root or any folder
 * under it, absolute paths) and saved collections (by name), together. Absent or empty means the whole
 * library. The same value travels from the caller to the index, where it filters before ranking.
 */
export const Scope = z
  .object({
    documents: z.array(z.string().min(1).max(200)).max(10_000).optional(),
    /** Absolute paths of files or folders inside the library. */
    paths: z.array(path).max(1000).optional(),
    collections: z.array(name).max(50).optional(),
  })
  .strict();
export type Scope = z.infer<typeof Scope>;

/** A saved scope: a name and the files and folders it holds (absolute paths). */
export const Collection = z.object({
  name,
  paths: z.array(z.string()),
  createdAt: z.number(),
  updatedAt: z.number(),
});
export type Collection = z.infer<typeof Collection>;
export const CollectionName = name;

/** One document that mentions a term: how many passages do, and its best page (1-based). */
export const DocumentMatch = z.object({
  documentId: z.string(),
  path: z.string(),
  matches: z.number().int().positive(),
  page: z.number().int().positive(),
  snippet: z.string(),
  /** The forms of the term found there (lower case), most passages first: "transformer", "transformers". */
  forms: z.array(z.string()),
});
export type DocumentMatch = z.infer<typeof DocumentMatch>;

/** Every document in scope that matches, not the top k, and what was searched. */
export const DocumentsResult = z.object({
  documents: z.array(DocumentMatch),
  /** In the user's words: "the whole library", "2 files and 1 folder", "collection “Contracts”". */
  searched: z.string(),
});
export type DocumentsResult = z.infer<typeof DocumentsResult>;
