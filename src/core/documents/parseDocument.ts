import type { DocumentKind } from '../../shared/domain/library';
import { asReaderError } from './readerErrors';
import { readerFor, type ReadOptions } from './readers/formatReaders';
import type { ParsedDocument } from './types';

export interface ParseOptions extends ReadOptions {
  kind: DocumentKind;
}

/** Reads one document of any supported kind into pages and chunks, in this thread, with its format's reader. */
export async function parseDocument(path: string, options: ParseOptions): Promise<ParsedDocument> {
  try {
    const { kind: _kind, ...readOptions } = options;
    return await readerFor(options.kind).read(path, readOptions);
  } catch (error) {
    throw asReaderError(error, path);
  }
}
