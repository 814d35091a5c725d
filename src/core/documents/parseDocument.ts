import { QuireError } from '../../shared/errors';
import type { DocumentKind } from '../../shared/domain/library';
import type { ChunkingOptions } from './layout/chunker';
import { parsePdf } from './pdf/parsePdf';
import { isStructuredKind, parseStructured } from './readers/structuredReaders';
import { parseTextFile } from './text/parseText';
import type { ParsedDocument } from './types';

export interface ParseOptions {
  kind: DocumentKind;
  password?: string;
  signal?: AbortSignal;
  chunking?: ChunkingOptions;
}

/** Reads one document of any supported kind into pages and chunks, in this thread. */
export async function parseDocument(path: string, options: ParseOptions): Promise<ParsedDocument> {
  try {
    if (options.kind === 'pdf') {
      return await parsePdf(path, {
        ...(options.password === undefined ? {} : { password: options.password }),
        ...(options.signal ? { signal: options.signal } : {}),
        ...(options.chunking ? { chunking: options.chunking } : {}),
      });
    }
    if (isStructuredKind(options.kind)) {
      return await parseStructured(path, options.kind, {
        ...(options.signal ? { signal: options.signal } : {}),
        ...(options.chunking ? { chunking: options.chunking } : {}),
      });
    }
    return await parseTextFile(path, options.kind, options.chunking ? { chunking: options.chunking } : {});
  } catch (error) {
    throw asReaderError(error, path);
  }
}

/** Maps file-system failures to codes the user can act on; QuireErrors pass through. */
export function asReaderError(error: unknown, path: string): unknown {
  if (error instanceof QuireError || (error as { name?: string } | null)?.name === 'AbortError') return error;
  const code = (error as NodeJS.ErrnoException | null)?.code;
  if (code === 'ENOENT') return new QuireError('not_found', `The file is gone: ${path}`);
  if (code === 'EACCES' || code === 'EPERM' || code === 'EISDIR') {
    return new QuireError('not_readable', `The file cannot be read: ${path} (${code})`);
  }
  return error;
}
