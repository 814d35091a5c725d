/**
 * `npm run bench -- library`: a cold scan of the corpus (every PDF opened for its page count) against
 * a re-scan with nothing changed (no PDF opened), in the same run.
 */
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Index } from '../../src/core/index/openIndex';
import { LibraryService } from '../../src/core/library/libraryService';
import { corpusDir, tempDir } from '../../test/helpers/shared';
import { peakRssBytes, type BenchReport } from './report';

async function scan(dataDir: string, folder: string | null) {
  const library = new LibraryService({ dataDir, watch: false });
  const index = await Index.open({ uri: join(dataDir, 'index') });
  const started = performance.now();
  await library.start(index.documents);
  if (folder) await library.addFolder(folder);
  await library.whenIdle();
  const seconds = (performance.now() - started) / 1000;
  const docs = library.snapshot().documents;
  await library.dispose();
  await index.dispose();
  const pages = docs.reduce((sum, d) => sum + (d.pages ?? 0), 0);
  return { seconds, files: docs.length, pages };
}

export async function run(args: string[]): Promise<BenchReport> {
  const folder = args[0] ?? corpusDir;
  const data = await tempDir('quire-bench-library-');
  try {
    const cold = await scan(join(data.path), folder);
    const warm = await scan(join(data.path), null);
    const row = (name: string, r: typeof cold) => ({
      scan: name,
      files: r.files,
      pages: r.pages,
      seconds: r.seconds,
      filesPerSecond: r.files / r.seconds,
      pagesPerSecond: r.pages / r.seconds,
    });
    const speedup = cold.seconds / warm.seconds;
    return {
      name: 'library',
      rows: [row('cold', cold), row('re-scan, nothing changed', warm)],
      targets: [
        {
          what: 're-scan speed-up over cold scan',
          target: '>= 20x',
          measured: `${speedup.toFixed(1)}x`,
          met: speedup >= 20,
        },
      ],
      details: { folder, peakRssBytes: peakRssBytes(), speedup },
    };
  } finally {
    await data.cleanup();
  }
}
