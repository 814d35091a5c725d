import { copyFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { createCore, type Core } from '../../src/core/createCore';
import type { DocumentInfo } from '../../src/shared/domain/library';
import { corpusDir, tempDir } from './shared';

export interface IndexedLibrary {
  core: Core;
  /** The indexed corpus PDF (tracemonkey.pdf, 14 pages). */
  document: DocumentInfo;
  /** A folder beside the library, outside its roots. */
  outside: string;
  dispose(): Promise<void>;
}

/** The real core with one real corpus PDF indexed (text and page images), no models. */
export async function indexedLibrary(): Promise<IndexedLibrary> {
  const dir = await tempDir('quire-page-images-');
  const folder = join(dir.path, 'library');
  const outside = join(dir.path, 'outside');
  await mkdir(folder);
  await mkdir(outside);
  await copyFile(join(corpusDir, 'pdfjs', 'tracemonkey.pdf'), join(folder, 'tracemonkey.pdf'));
  const core = createCore({
    dataDir: join(dir.path, 'data'),
    findModels: false,
    detectServers: false,
    embedInBackground: false,
    ocr: false,
    workers: 1,
    imageLongEdge: 800,
  });
  await core.start();
  await core.library.addFolder(folder);
  do {
    await core.library.whenIdle();
    await core.ingestion.whenIdle();
  } while (core.library.snapshot().scanning);
  const document = core.library.snapshot().documents.find((d) => d.path.endsWith('tracemonkey.pdf'));
  if (document?.state !== 'indexed') throw new Error(`tracemonkey.pdf was not indexed: ${document?.state}`);
  return {
    core,
    document,
    outside,
    async dispose() {
      await core.dispose();
      await dir.cleanup();
    },
  };
}
