/**
 * `npm run bench -- page-words [--calls N] [--concurrency N]`: how fast the viewer gets a page's words
 * (`pages.words`, what it asks for to highlight a cited sentence) while many pages are asked for at
 * once, as when a user scrolls a long filing. Two born-digital PDFs of the corpus (619 and about 100
 * pages) are indexed text-only; then N calls for pages spread over both run with the given
 * concurrency, after one call that loads the PDF engine (timed apart). Issue 39's target: p95 under 200 ms at concurrency 16.
 */
import { copyFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createCore } from '../../src/core/createCore';
import { corpusDir, tempDir } from '../../test/helpers/shared';
import { untilIndexed } from '../../test/helpers/untilIndexed';
import { numberOption, percentile, type BenchReport } from './report';

const FILES = [
  ['unstructured', 'DA-619p.pdf'],
  ['financebench', 'PEPSICO_2022_10K.pdf'],
] as const;

export async function run(args: string[]): Promise<BenchReport> {
  const calls = numberOption(args, '--calls', 100);
  const concurrency = numberOption(args, '--concurrency', 16);
  const dir = await tempDir('quire-bench-page-words-');
  const folder = join(dir.path, 'library');
  await mkdir(folder);
  for (const [sub, name] of FILES) await copyFile(join(corpusDir, sub, name), join(folder, name));
  const core = createCore({
    dataDir: join(dir.path, 'data'),
    findModels: false,
    detectServers: false,
    renderImages: false,
    ocr: false,
  });
  try {
    await core.start();
    await core.library.addFolder(folder);
    await untilIndexed(core);
    const docs = core.library.snapshot().documents.filter((doc) => doc.state === 'indexed');
    if (docs.length !== FILES.length) throw new Error(`only ${docs.length} of ${FILES.length} files indexed`);

    // Pages spread over both files, each asked for once or twice: a scroll, then a return.
    const asks = Array.from({ length: calls }, (_, i) => {
      const doc = docs[i % docs.length]!;
      const pages = doc.pages ?? 1;
      return { documentId: doc.id, page: 1 + ((i * 37) % Math.max(1, Math.floor(pages / 2))) };
    });
    // The first call loads PDFium's engine into this process (about a second): timed on its own.
    const firstStarted = performance.now();
    const first = await core.dispatch('pages.words', { documentId: docs[0]!.id, page: 1 });
    const firstCallMs = performance.now() - firstStarted;
    if (!first.ok) throw new Error(`pages.words failed: ${first.error.message}`);
    const times: number[] = [];
    let errors = 0;
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < asks.length) {
          const ask = asks[next++]!;
          const began = performance.now();
          const result = await core.dispatch('pages.words', ask);
          times.push(performance.now() - began);
          if (!result.ok) errors += 1;
        }
      }),
    );
    const wallSeconds = (performance.now() - started) / 1000;
    times.sort((a, b) => a - b);
    const p95 = percentile(times, 95);
    return {
      name: 'page-words',
      rows: [
        {
          calls,
          concurrency,
          errors,
          p50Ms: percentile(times, 50),
          p95Ms: p95,
          maxMs: times.at(-1) ?? NaN,
          wallSeconds,
          firstCallMs,
        },
      ],
      targets: [
        {
          what: `pages.words p95 at concurrency ${concurrency}`,
          target: '< 200 ms, no errors',
          measured: `${p95.toFixed(1)} ms, ${errors} errors`,
          met: p95 < 200 && errors === 0,
        },
      ],
      details: { files: FILES.map(([, name]) => name), times },
    };
  } finally {
    await core.dispose();
    await dir.cleanup();
  }
}
