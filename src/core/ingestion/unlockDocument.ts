import { QuireError } from '../../shared/errors';
import type { LibraryService } from '../library/libraryService';
import type { StoredDocument } from '../library/libraryStore';
import type { PasswordVault } from './passwordVault';

/**
 * Reads a password-protected PDF with the password the user gave, ahead of the rest. The password is
 * kept for this run only until the file opens with it, and remembered afterwards only when asked;
 * a wrong one is forgotten and the error reaches the caller.
 */
export async function unlockDocument(
  library: Pick<LibraryService, 'document'>,
  passwords: PasswordVault,
  /** Reads the file ahead of the rest; settles when that reading ends. */
  readFirst: (doc: StoredDocument) => Promise<void>,
  request: { documentId: string; password: string; remember: boolean },
): Promise<StoredDocument> {
  const doc = library.document(request.documentId);
  if (!doc) throw new QuireError('not_found', 'That document is not in the library.');
  if (doc.kind !== 'pdf') throw new QuireError('invalid_input', 'Only PDFs have passwords.');
  await passwords.put(doc.id, request.password, false);
  try {
    await readFirst(doc);
  } catch (error) {
    await passwords.forget(doc.id);
    throw error;
  }
  if (request.remember) await passwords.put(doc.id, request.password, true);
  return library.document(doc.id) ?? doc;
}
