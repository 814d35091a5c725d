/**
 * `npm run bench -- formats [--repeat N]`: pages per second of every reader on the office corpus
 * (shared/corpus/office), per format, in this process: reading (text, structure, layout, chunks) and
 * drawing the page images (1600 px, WebP). The PDF text reader on about as many corpus PDF pages is
 * the baseline `vsPdf` is taken against. A picture is read here without OCR (its frames measured,
 * pages made; `bench -- ocr` measures recognition). .ppt and .xls files are refused: they count as
 * `notRead`, with the time it took to say so.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseDocument } from '../../src/core/documents/parseDocument';
import { PageImageStore } from '../../src/core/documents/render/pageImageStore';
import { documentKindOf, readerFor } from '../../src/core/documents/readers/formatReaders';
import { corpusDir, tempDir } from '../../test/helpers/shared';
import { option, readablePdfs } from './extract';
import { peakRssBytes, type BenchReport } from './report';

interface Tally {
  files: number;
  pages: number;
  failed: number;
  seconds: number;
  drawnPages?: number;
  drawSeconds?: number;
}

async function readAll(
  paths: readonly string[],
  repeat: number,
  tally: Map<string, Tally>,
  group: (path: string) => string,
) {
  for (const path of paths) {
    const kind = documentKindOf(path);
    if (!kind) continue;
    const entry = tally.get(group(path)) ?? { files: 0, pages: 0, failed: 0, seconds: 0 };
    entry.files++;
    for (let round = 0; round < repeat; round++) {
      const started = performance.now();
      try {
        const parsed = await parseDocument(path, { kind });
        entry.pages += parsed.pages.length;
      } catch {
        entry.failed++;
      }
      entry.seconds += (performance.now() - started) / 1000;
    }
    tally.set(group(path), entry);
  }
}

export async function run(args: string[]): Promise<BenchReport> {
  const repeat = option(args, '--repeat', 3);
  const office = join(corpusDir, 'office');
  const files = readdirSync(office)
    .filter((name) => documentKindOf(name) !== null)
    .map((name) => join(office, name));
  const byFormat = new Map<string, Tally>();
  // One warm-up pass, so module loading and JIT do not count against the first format.
  await readAll(files, 1, new Map(), () => '');
  await readAll(files, repeat, byFormat, (path) => path.slice(path.lastIndexOf('.') + 1).toLowerCase());

  // Drawing: every page of every file but PDFs once, into a store that starts empty.
  const store = await tempDir();
  try {
    for (const [at, path] of files.entries()) {
      const kind = documentKindOf(path)!;
      const reader = readerFor(kind);
      // PDF pages are measured by `bench -- render`.
      if (kind === 'pdf' || !reader.drawPages) continue;
      const entry = byFormat.get(path.slice(path.lastIndexOf('.') + 1).toLowerCase())!;
      const pages = (await parseDocument(path, { kind })).pages.length;
      const started = performance.now();
      const contentHash = at.toString(16).padStart(16, '0');
      const drawn = await reader.drawPages(
        path,
        { contentHash, pages: Array.from({ length: pages }, (_, i) => i + 1) },
        new PageImageStore(store.path),
      );
      entry.drawSeconds = (entry.drawSeconds ?? 0) + (performance.now() - started) / 1000;
      entry.drawnPages = (entry.drawnPages ?? 0) + drawn.length;
    }
  } finally {
    await store.cleanup();
  }

  const baseline = new Map<string, Tally>();
  const officePages = [...byFormat.values()].reduce((sum, t) => sum + t.pages, 0) / repeat;
  const pdfs: string[] = [];
  let pdfPages = 0;
  for (const row of readablePdfs()) {
    if (pdfPages >= officePages) break;
    pdfs.push(join(corpusDir, row.localPath));
    pdfPages += row.pages;
  }
  await readAll(pdfs, repeat, baseline, () => 'pdf (baseline)');
  const pdf = baseline.get('pdf (baseline)')!;
  const pdfRate = pdf.pages / pdf.seconds;

  const rows: BenchReport['rows'] = [...byFormat.entries(), ...baseline.entries()]
    .sort((a, b) => a[0].localeCompare(b[0]))
    .map(([format, t]) => ({
      format,
      files: t.files,
      pagesPerFile: Number((t.pages / repeat / t.files).toFixed(1)),
      pagesPerSecond: t.seconds > 0 ? t.pages / t.seconds : 0,
      msPerFile: (t.seconds * 1000) / (t.files * repeat),
      vsPdf: t.seconds > 0 ? t.pages / t.seconds / pdfRate : 0,
      drawnPagesPerSecond: t.drawSeconds ? (t.drawnPages ?? 0) / t.drawSeconds : null,
      notRead: t.failed / repeat,
    }));
  return {
    name: 'formats',
    rows,
    details: { repeat, peakRssMb: Math.round(peakRssBytes() / (1024 * 1024)), pdfFiles: pdfs.length },
  };
}
