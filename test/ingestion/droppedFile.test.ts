/**
 * A PDF dropped into a watched library folder is opened once before it is searchable (listing it
 * opens nothing; ingestion reads it and counts its pages) and its documents row is written once
 * (indexed; never for the passing states listed, queued and indexing). `library.json` is not written
 * at all: it holds folders only.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { createDocumentPool, type DocumentPool } from '../../src/core/documents/pool/documentPool';
import { PageImageStore } from '../../src/core/documents/render/pageImageStore';
import { Index } from '../../src/core/index/openIndex';
import { Ingestion } from '../../src/core/ingestion/ingestion';
import { PasswordVault } from '../../src/core/ingestion/passwordVault';
import { LibraryService } from '../../src/core/library/libraryService';
import { LibraryStore } from '../../src/core/library/libraryStore';
import { connect } from '@lancedb/lancedb';
import { samplePdfBytes, samplePdfs } from '../helpers/samplePdfs';
import { tempDir } from '../helpers/shared';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  vi.restoreAllMocks();
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

describe('a file dropped into a watched folder', () => {
  it('is opened once, and its documents row written once', { timeout: 120_000 }, async () => {
    const dir = await tempDir('quire-dropped-');
    cleanups.push(() => dir.cleanup());
    const folder = join(dir.path, 'docs');
    const dataDir = join(dir.path, 'data');
    await mkdir(folder, { recursive: true });
    await mkdir(dataDir, { recursive: true });

    /** Every time a file is opened to be read, by whom. */
    const opens: string[] = [];
    const library = new LibraryService({ dataDir, watch: true, changeDelayMs: 20 });
    const pool = createDocumentPool({ size: 1, jobTimeoutMs: 60_000 });
    const counting: DocumentPool = {
      ...pool,
      size: pool.size,
      parse: (path, options) => {
        opens.push(`parse ${path}`);
        return pool.parse(path, options);
      },
      pageText: (path, options) => {
        opens.push(`pageText ${path}`);
        return pool.pageText(path, options);
      },
      ocr: (path, options) => {
        opens.push(`ocr ${path}`);
        return pool.ocr(path, options);
      },
    };
    const index = await Index.open({ uri: join(dataDir, 'index') });
    const ingestion = new Ingestion({
      library,
      index,
      pool: counting,
      images: new PageImageStore(join(dataDir, 'pages')),
      passwords: new PasswordVault(null),
      // Page images are drawn apart, after every file's text, by design; this counts the text's reading.
      renderImages: false,
    });
    cleanups.unshift(async () => {
      await ingestion.dispose();
      await pool.dispose();
      await library.dispose();
      await index.dispose();
    });
    await library.start(index.documents);
    ingestion.start();
    await library.addFolder(folder);
    await library.whenIdle();
    await ingestion.whenIdle();

    const writes = vi.spyOn(LibraryStore.prototype, 'save');
    const table = await (await connect(join(dataDir, 'index'))).openTable('documents');
    const versionBefore = await table.version();
    opens.length = 0;
    const dropped = join(folder, 'survey.pdf');
    await writeFile(dropped, samplePdfBytes(samplePdfs[0]!.pages));

    const deadline = Date.now() + 60_000;
    while (library.snapshot().documents.find((d) => d.path === dropped)?.state !== 'indexed') {
      if (Date.now() > deadline) throw new Error('the dropped file was not indexed');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await ingestion.whenIdle();
    await library.whenIdle();

    expect(opens).toEqual([`parse ${dropped}`]);
    expect(writes).not.toHaveBeenCalled();
    await table.checkoutLatest();
    expect((await table.version()) - versionBefore).toBe(1);
    const row = index.documents.list().find((d) => d.path === dropped);
    expect(row).toMatchObject({ state: 'indexed', pages: 3 });
    table.close();
  });
});
