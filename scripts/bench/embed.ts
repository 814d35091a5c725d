/**
 * `npm run bench -- embed [--chunks N] [--limit N] [--embedder NAME] [--no-library]`: the real text
 * embedders of the fetched set (`npm run models:fetch-real`) as the product runs them, in their host
 * process on every core: chunks per second over N corpus chunks (96 by default), and, for one embedder
 * (bge-small unless `--embedder` names another), the queue bench's folder (N corpus PDFs, 30 by
 * default) indexed text-only with it: seconds until every file is searchable by words, and until
 * every chunk is searchable by meaning (its text vectors complete).
 */
import { copyFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { basename, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createCore } from '../../src/core/createCore';
import { parseDocument } from '../../src/core/documents/parseDocument';
import { OnnxTextEmbedder } from '../../src/core/models/onnx/onnxTextEmbedder';
import { readRealModels } from '../../test/helpers/realModels';
import { corpusDir, tempDir } from '../../test/helpers/shared';
import { option, pickFiles, readablePdfs } from './extract';
import type { BenchReport } from './report';

/** Chunk texts as the readers cut them, from the first corpus PDFs that hold enough text. */
async function corpusChunks(count: number): Promise<string[]> {
  const texts: string[] = [];
  for (const row of pickFiles(readablePdfs(), 12)) {
    const parsed = await parseDocument(join(corpusDir, row.localPath), { kind: 'pdf' }).catch(() => null);
    for (const chunk of parsed?.chunks ?? []) if (chunk.text.trim()) texts.push(chunk.text);
    if (texts.length >= count) break;
  }
  return texts.slice(0, count);
}

/** Seconds until the folder's text is searchable, then until its chunks are all embedded. */
async function libraryToMeaning(
  embedderPath: string,
  limit: number,
): Promise<{ files: number; pages: number; chunks: number; searchable: number; meaning: number }> {
  const files = pickFiles(readablePdfs(), limit);
  const folder = await tempDir('quire-bench-embed-folder-');
  const data = await tempDir('quire-bench-embed-data-');
  for (const [i, row] of files.entries())
    await copyFile(join(corpusDir, row.localPath), join(folder.path, `${i}-${basename(row.localPath)}`));
  const core = createCore({
    dataDir: data.path,
    watch: false,
    findModels: false,
    renderImages: false,
    ocr: false,
    embedderPath,
    modelThreads: availableParallelism(),
  });
  try {
    await core.start();
    const started = performance.now();
    await core.library.addFolder(folder.path);
    do {
      await core.library.whenIdle();
      await core.ingestion.whenIdle();
    } while (core.library.snapshot().scanning);
    const searchable = (performance.now() - started) / 1000;
    let chunks = 0;
    const off = core.embedding.events.on('progress', (p) => {
      if (p.kind === 'text') chunks = p.total;
    });
    core.embedding.request();
    await core.embedding.whenIdle();
    off();
    const meaning = (performance.now() - started) / 1000;
    if (core.index.vectors.status().text.active === null)
      throw new Error(`the text vectors of ${embedderPath} did not become active`);
    const documents = core.library.snapshot().documents;
    const pages = documents.reduce((sum, d) => sum + (d.pages ?? 0), 0);
    return { files: documents.length, pages, chunks, searchable, meaning };
  } finally {
    await core.dispose();
    await folder.cleanup();
    await data.cleanup();
  }
}

export async function run(args: string[]): Promise<BenchReport> {
  const models = readRealModels();
  if (typeof models === 'string') {
    console.log(models);
    return { name: 'embed', rows: [], details: { skipped: models } };
  }
  const chunks = await corpusChunks(option(args, '--chunks', 96));
  const words = chunks.reduce((sum, text) => sum + text.split(/\s+/).length, 0) / chunks.length;
  const rows: BenchReport['rows'] = [];
  for (const entry of models.embedders) {
    const embedder = await OnnxTextEmbedder.create({
      modelPath: entry.path,
      threads: availableParallelism(),
    });
    try {
      await embedder.embed(chunks.slice(0, 2)); // loads the model: not timed
      const started = performance.now();
      await embedder.embed(chunks);
      const seconds = (performance.now() - started) / 1000;
      rows.push({
        embedder: entry.name,
        stage: `${chunks.length} chunks (${Math.round(words)} words each on average)`,
        seconds,
        chunksPerSecond: chunks.length / seconds,
      });
    } finally {
      await embedder.dispose();
    }
  }
  if (!args.includes('--no-library')) {
    const at = args.indexOf('--embedder');
    const wanted = at === -1 ? 'bge-small' : (args[at + 1] ?? '');
    const entry = models.embedders.find((e) => e.name.includes(wanted));
    if (!entry) throw new Error(`No fetched embedder is named like "${wanted}".`);
    const library = await libraryToMeaning(entry.path, option(args, '--limit', 30));
    rows.push(
      {
        embedder: entry.name,
        stage: `${library.files} files, ${library.pages} pages: searchable by words`,
        seconds: library.searchable,
        chunksPerSecond: null,
      },
      {
        embedder: entry.name,
        stage: `${library.chunks} chunks: searchable by meaning`,
        seconds: library.meaning,
        chunksPerSecond: library.chunks / (library.meaning - library.searchable),
      },
    );
  }
  return { name: 'embed', rows, details: { threads: availableParallelism() } };
}
