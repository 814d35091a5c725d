import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createCore, type Core } from '../../src/core/createCore';
import type { DocumentInfo } from '../../src/shared/domain/library';
import { samplePdfBytes, samplePdfs } from './samplePdfs';
import { tempDir } from './shared';

export interface IndexedLibrary {
  core: Core;
  /** The indexed PDF (field survey.pdf, three Letter pages, written by the test). */
  document: DocumentInfo;
  /** A folder beside the library, outside its roots. */
  outside: string;
  dispose(): Promise<void>;
}

/** The real core with one PDF indexed (text and page images), no models. */
export async function indexedLibrary(): Promise<IndexedLibrary> {
  const dir = await tempDir('quire-page-images-');
  const folder = join(dir.path, 'library');
  const outside = join(dir.path, 'outside');
  await mkdir(folder);
  await mkdir(outside);
  const survey = samplePdfs[0]!;
  await writeFile(join(folder, survey.name), samplePdfBytes(survey.pages));
  const core = createCore({
    dataDir: join(dir.path, 'data'),
    findModels: false,
    detectServers: false,
    embedInBackground: false,
    ocr: false,
    workers: 1,
    imageLongEdge: 800,
  });
  const dispose = async () => {
    try {
      await core.dispose();
    } finally {
      await dir.cleanup();
    }
  };
  try {
    await core.start();
    await core.library.addFolder(folder);
    do {
      await core.library.whenIdle();
      await core.ingestion.whenIdle();
    } while (core.library.snapshot().scanning);
    const document = core.library.snapshot().documents.find((d) => d.path.endsWith(survey.name));
    if (document?.state !== 'indexed') throw new Error(`${survey.name} was not indexed: ${document?.state}`);
    return { core, document, outside, dispose };
  } catch (error) {
    // The caller never gets a dispose() to call: nothing may stay behind in the temp folder.
    await dispose();
    throw error;
  }
}
