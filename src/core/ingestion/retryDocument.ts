import { QuireError } from '../../shared/errors';
import type { LibraryService } from '../library/libraryService';
import type { StoredDocument } from '../library/libraryStore';
import type { Ingestion } from './ingestion';

/** States the user can ask to read again: reading ended with an error. */
const RETRYABLE = new Set<StoredDocument['state']>(['failed', 'quarantined']);

/**
 * Queues a failed or quarantined file ahead of the rest, from its first attempt; returns it as it
 * stands now (queued). A file that is fine, or still being read, is refused with the reason.
 */
export function retryDocument(
  library: Pick<LibraryService, 'document'>,
  ingestion: Pick<Ingestion, 'enqueue'>,
  documentId: string,
): StoredDocument {
  const doc = library.document(documentId);
  if (!doc) throw new QuireError('not_found', 'That document is not in the library.');
  if (!RETRYABLE.has(doc.state)) {
    throw new QuireError('invalid_input', `${doc.relativePath} did not fail, so there is nothing to retry.`);
  }
  ingestion.enqueue(doc, 'asked');
  return library.document(documentId) ?? doc;
}
