import type { StructuredKind } from '../documentKinds';
import type { ChunkingOptions } from '../layout/chunker';
import type { StructuredDocument } from '../structure/model';
import { toParsedDocument } from '../structure/toParsedDocument';
import type { ParsedDocument } from '../types';
export { isStructuredKind, type StructuredKind } from '../documentKinds';

/**
 * The blocks and units of a document of a structured kind, before layout. Each reader is loaded on
 * first use, so workers that only ever read PDFs never load the office libraries.
 */
export async function readStructure(
  path: string,
  kind: StructuredKind,
  signal?: AbortSignal,
): Promise<StructuredDocument> {
  const options = signal ? { signal } : {};
  switch (kind) {
    case 'docx':
      return (await import('./docx/readDocx')).readDocx(path, options);
    case 'doc':
      return (await import('./legacy/readLegacy')).readDoc(path);
    case 'pptx':
      return (await import('./pptx/readPptx')).readPptx(path, options);
    case 'xlsx':
      return (await import('./xlsx/readXlsx')).readXlsx(path, options);
    case 'odt':
    case 'odp':
    case 'ods':
      return (await import('./odf/readOdf')).readOdf(path, kind, options);
    case 'html':
      return (await import('./html/readHtml')).readHtml(path);
    case 'epub':
      return (await import('./epub/readEpub')).readEpub(path, options);
    case 'image':
      return (await import('./image/readImage')).readImage(path);
    case 'ppt':
    case 'xls':
      return (await import('./legacy/readLegacy')).refuseLegacy(kind);
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
