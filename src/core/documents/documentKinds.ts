import type { DocumentKind } from '../../shared/domain/library';

/*
 * What each kind of document gets, in one place: which reader family reads it and whether its pages
 * have images. Free of reader imports, so the main thread can ask without loading the readers.
 */

/** Kinds read through the structured layout (everything but PDF, Markdown and plain text). */
export type StructuredKind = Exclude<DocumentKind, 'pdf' | 'markdown' | 'text'>;

export function isStructuredKind(kind: DocumentKind): kind is StructuredKind {
  return kind !== 'pdf' && kind !== 'markdown' && kind !== 'text';
}

/** Kinds whose pages Quire lays out itself, and so can draw and show as formatted text. */
export function isLaidOutKind(kind: DocumentKind): boolean {
  return kind !== 'pdf' && kind !== 'image' && kind !== 'ppt' && kind !== 'xls';
}

/** Whether pages of this kind get images: PDF pages drawn from the file, laid-out pages from their layout. */
export function hasPageImages(kind: DocumentKind): boolean {
  return kind === 'pdf' || isLaidOutKind(kind);
}
