import { QuireError } from '../../shared/errors';
import type { CoreServices } from '../coreServices';

/**
 * Opens a library document in the system's own viewer. The path goes through the path policy, and
 * the desktop's opener takes it as one argument: no shell ever sees it.
 */
export async function openExternally(
  core: Pick<CoreServices, 'library' | 'openFile'>,
  documentId: string,
): Promise<{ opened: true }> {
  if (!core.openFile) {
    throw new QuireError(
      'unsupported',
      'Opening a file in the system viewer works in the desktop app only, not in the browser.',
    );
  }
  const doc = core.library.document(documentId);
  if (!doc) throw new QuireError('not_found', 'That document is not in the library.');
  const path = await core.library.readablePath(doc.path);
  await core.openFile(path);
  return { opened: true };
}
