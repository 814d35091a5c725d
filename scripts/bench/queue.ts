/**
 * `npm run bench -- queue [--limit N]`: a folder of N corpus PDFs (30 by default) indexed by the app's
 * own queue, with page images: seconds until every file's text is searchable, and until every page
 * is drawn. Text goes first, so the first number is what a user waits for before searching.
 */
import { copyFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createCore } from '../../src/core/createCore';
import { corpusDir, tempDir } from '../../test/helpers/shared';
import { option, pickFiles, readablePdfs } from './extract';
import { peakRssBytes, type BenchReport } from './report';

export async function run(args: string[]): Promise<BenchReport> {
  const files = pickFiles(readablePdfs(), option(args, '--limit', 30));
  const folder = await tempDir('quire-bench-queue-folder-');
  const data = await tempDir('quire-bench-queue-data-');
  for (const [i, row] of files.entries()) {
    await copyFile(join(corpusDir, row.localPath), join(folder.path, `${i}-${basename(row.localPath)}`));
  }
  const core = createCore({ dataDir: data.path, watch: false, findModels: false });
  try {
    await core.start();
    const started = performance.now();
    let searchableSeconds: number | null = null;
    const sampler = setInterval(() => {
      const documents = core.library.snapshot().documents;
      const settled = documents.every(
        (d) => d.state !== 'listed' && d.state !== 'queued' && d.state !== 'indexing',
      );
      if (searchableSeconds === null && documents.length === files.length && settled) {
        searchableSeconds = (performance.now() - started) / 1000;
      }
    }, 50);
    await core.library.addFolder(folder.path);
    do {
      await core.library.whenIdle();
      await core.ingestion.whenIdle();
    } while (core.library.snapshot().scanning);
    clearInterval(sampler);
    const drawnSeconds = (performance.now() - started) / 1000;
    const documents = core.library.snapshot().documents;
    const pages = documents.reduce((sum, d) => sum + (d.pages ?? 0), 0);
    const indexed = documents.filter((d) => d.state === 'indexed').length;
    return {
      name: 'queue',
      rows: [
        {
          stage: 'every file searchable (text)',
          files: indexed,
          pages,
          seconds: searchableSeconds ?? drawnSeconds,
        },
        { stage: 'every page drawn (images)', files: indexed, pages, seconds: drawnSeconds },
      ],
      details: { peakRssBytes: peakRssBytes(), files: files.map((row) => row.localPath) },
    };
  } finally {
    await core.dispose();
    await folder.cleanup();
    await data.cleanup();
  }
}
