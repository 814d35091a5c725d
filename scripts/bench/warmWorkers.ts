import { copyFile } from 'node:fs/promises';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Core } from '../../src/core/createCore';
import { corpusDir, tempDir } from '../../test/helpers/shared';

/**
 * Starts the pool's workers before a bench times anything: from source each compiles the TypeScript
 * it runs when it starts (10 to 30 s on a loaded machine), which the built app never does. Two small
 * PDFs of different content (so each is read), outside every timed set, are indexed in a folder of
 * their own, with all the work that follows their text. Returns that folder (to tell its files apart)
 * and the seconds it took.
 */
export async function warmWorkers(
  core: Core,
): Promise<{ folder: string; seconds: number; cleanup: () => Promise<void> }> {
  const warm = await tempDir('quire-bench-warm-');
  for (const name of ['tracemonkey.pdf', 'TAMReview.pdf']) {
    await copyFile(join(corpusDir, 'pdfjs', name), join(warm.path, name));
  }
  const started = performance.now();
  await core.library.addFolder(warm.path);
  const read = () =>
    core.library
      .snapshot()
      .documents.filter(
        (d) => d.path.startsWith(warm.path) && !['listed', 'queued', 'indexing'].includes(d.state),
      );
  while (read().length < 2) await sleep(50);
  // What follows their text (layer check, OCR of their figure pages, tidying) is let finish too: an OCR
  // batch already running holds a worker for seconds, so left running it would be timed as the bench's.
  await core.ingestion.whenIdle();
  return { folder: warm.path, seconds: (performance.now() - started) / 1000, cleanup: warm.cleanup };
}
