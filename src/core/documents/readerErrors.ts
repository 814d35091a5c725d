import { QuireError } from '../../shared/errors';

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
