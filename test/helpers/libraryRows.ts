import { join } from 'node:path';
import { Index } from '../../src/core/index/openIndex';
import type { LibraryService } from '../../src/core/library/libraryService';

/**
 * Starts a library on a real index in its data folder (the index's documents table is where the
 * library's documents live). The returned function closes both, the library first.
 */
export async function startLibrary(
  library: LibraryService,
  dataDir: string,
  options: { readOnly?: boolean } = {},
): Promise<() => Promise<void>> {
  const index = await Index.open({ uri: join(dataDir, 'index') });
  await library.start(index.documents, options);
  return async () => {
    await library.dispose();
    await index.dispose();
  };
}
