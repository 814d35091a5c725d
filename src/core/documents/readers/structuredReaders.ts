import type { DocumentKind } from '../../../shared/domain/library';
import type { ChunkingOptions } from '../layout/chunker';
import type { StructuredDocument } from '../structure/model';
import { toParsedDocument } from '../structure/toParsedDocument';
import type { ParsedDocument } from '../types';
import { readDocx } from './docx/readDocx';
import { readEpub } from './epub/readEpub';
import { readHtml } from './html/readHtml';
import { readImage } from './image/readImage';
import { readDoc, refuseLegacy } from './legacy/readLegacy';
import { readOdf } from './odf/readOdf';
import { readPptx } from './pptx/readPptx';
import { readXlsx } from './xlsx/readXlsx';

/** Kinds read through the structured layout (everything but PDF, Markdown and plain text). */
export type StructuredKind = Exclude<DocumentKind, 'pdf' | 'markdown' | 'text'>;

export function isStructuredKind(kind: DocumentKind): kind is StructuredKind {
  return kind !== 'pdf' && kind !== 'markdown' && kind !== 'text';
}

/** The blocks and units of a document of a structured kind, before layout. */
export function readStructure(
  path: string,
  kind: StructuredKind,
  signal?: AbortSignal,
): Promise<StructuredDocument> {
  const options = signal ? { signal } : {};
  switch (kind) {
    case 'docx':
      return readDocx(path, options);
    case 'doc':
      return readDoc(path);
    case 'pptx':
      return readPptx(path, options);
    case 'xlsx':
      return readXlsx(path, options);
    case 'odt':
    case 'odp':
    case 'ods':
      return readOdf(path, kind, options);
    case 'html':
      return readHtml(path);
    case 'epub':
      return readEpub(path, options);
    case 'image':
      return readImage(path);
    case 'ppt':
    case 'xls':
      return refuseLegacy(kind);
  }
}

/** A structured document read and laid out on pages, with its chunks. */
export async function parseStructured(
  path: string,
  kind: StructuredKind,
  options: { signal?: AbortSignal; chunking?: ChunkingOptions } = {},
): Promise<ParsedDocument> {
  return toParsedDocument(kind, await readStructure(path, kind, options.signal), options.chunking);
}
