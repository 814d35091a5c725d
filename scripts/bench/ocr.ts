/**
 * `npm run bench -- ocr`: word error rate, pages per second and peak memory of Quire's OCR (Tesseract
 * 5 in WebAssembly, read at about 150 dpi, turned and deskewed from the page's text lines) against
 * Debian's `tesseract` CLI on the same pages in the same run, and of PaddleOCR (@gutenye/ocr-node)
 * when it is installed. The pages
 * are those with reference text in shared/qa/text, drawn at 300 dpi for the PNGs the other engines
 * read and, for Quire's, at the resolution its OCR draws them at; one page at a time on one thread
 * (OMP_THREAD_LIMIT=1 for the CLI), the engines taking
 * turns page by page so that a change in the machine's load falls on all of them. Beside pages per
 * second it reports pages per CPU-second (every thread of each engine's process), which a shared
 * machine's load moves much less. Quire is measured as the app reads after setup (Tesseract's fast
 * model from the models folder, Debian's identical file standing in for the download; the targets
 * are this row's) and with the packaged best_int model it falls back to without it.
 */
import { execFile, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { READING_DPI } from '../../src/core/documents/ocr/recognizePage';
import { ocrLongEdge } from '../../src/core/documents/ocr/ocrPageDrawing';
import { PdfPageDrawer } from '../../src/core/documents/render/pdfPageDrawer';
import { OcrSettingsStore } from '../../src/core/ingestion/ocrSettingsStore';
import { modelsDirOf } from '../../src/core/models/catalogue/modelsFolder';
import { ocrModelDownloads } from '../../src/core/models/downloads/catalogueDownloads';
import { corpusDir, sharedDir, tempDir } from '../../test/helpers/shared';
import { rawPage, rawPagePath } from './ocrRawPage';
import type { BenchReport } from './report';
import { wordEdits } from './wordErrorRate';

const run$ = promisify(execFile);
const GNU_TIME = '/usr/bin/time';
/** Debian's tesseract-ocr-eng: the "fast" model the CLI reads, byte-identical to the one setup downloads. */
const DEBIAN_MODELS = '/usr/share/tesseract-ocr/5/tessdata';

/**
 * The fast model's folder as the app resolves it after setup: Debian's English model (the same bytes
 * as the pinned download) put where the download lands, then found by the OCR settings the way the
 * app finds it, checked against its pin. Null, with the reason on stderr, when that fails: the row
 * is then left out rather than measured with some other model.
 */
async function fastModelAsSetUp(dataDir: string): Promise<string | null> {
  const debian = join(DEBIAN_MODELS, 'eng.traineddata');
  if (!existsSync(debian)) {
    process.stderr.write(`ocr: no ${debian} (tesseract-ocr-eng): the row for Quire as set up is left out\n`);
    return null;
  }
  const modelsDir = modelsDirOf(dataDir);
  for (const download of ocrModelDownloads(['eng'])) {
    const target = join(modelsDir, download.fileName);
    await mkdir(dirname(target), { recursive: true });
    await copyFile(debian, target);
  }
  const settings = new OcrSettingsStore(dataDir, false, () => undefined, modelsDir);
  await settings.load();
  if (settings.fastModelDir === null)
    process.stderr.write(
      `ocr: ${debian} is not the pinned fast model: the row for Quire as set up is left out\n`,
    );
  return settings.fastModelDir;
}

/** Files with reference text; a reference covers all the pages listed, in order. */
const SETS = [
  { file: 'ocrmypdf/linn.pdf', pages: [1], reference: 'ocrmypdf__linn.txt' },
  // The same page scanned skewed, and rotated and skewed: the reference is the same text.
  { file: 'ocrmypdf/skew.pdf', pages: [1], reference: 'ocrmypdf__linn.txt' },
  { file: 'ocrmypdf/rotated_skew.pdf', pages: [1], reference: 'ocrmypdf__linn.txt' },
  {
    file: 'docling/ocr__ocr_test.pdf',
    pages: [1],
    reference: 'ocr__tesseract__full_page__ocr_test.tesseract.full_page.md',
  },
  {
    file: 'docling/ocr__ocr_test_rotated_90.pdf',
    pages: [1],
    reference: 'ocr__tesseract__full_page__ocr_test_rotated_90.tesseract.full_page.md',
  },
  {
    file: 'docling/ocr__ocr_test_rotated_180.pdf',
    pages: [1],
    reference: 'ocr__tesseract__full_page__ocr_test_rotated_180.tesseract.full_page.md',
  },
  {
    file: 'docling/ocr__ocr_test_rotated_270.pdf',
    pages: [1],
    reference: 'ocr__tesseract__full_page__ocr_test_rotated_270.tesseract.full_page.md',
  },
  {
    file: 'docling/ocr__nemotron_multipage.pdf',
    pages: [1, 2, 3, 4],
    reference: 'ocr__nemotron_ocr__full_page__nemotron_multipage.nemotron_ocr.full_page.md',
  },
];

interface EngineResult {
  engine: string;
  texts: string[] | null;
  seconds: number;
  /** CPU time over every page (all of the engine's threads); null when it could not be measured. */
  cpuSeconds: number | null;
  peakRssBytes: number;
  /** The process's memory before its engine started (node and the bench's own code); 0 for the CLI. */
  startRssBytes: number;
  error?: string;
}

/**
 * An engine the bench hands pages to one at a time, with the CPU time each page took (on a machine
 * shared with other work, wall time swings with their load; CPU time much less); `finish` reports
 * its peak memory.
 */
interface PageReader {
  name: string;
  read(page: DrawnPage): Promise<{ text: string; cpuSeconds: number | null }>;
  finish(): Promise<{ peak: number; start: number }>;
}

interface DrawnPage {
  png: string;
  set: number;
  /** The page's size in points. */
  size: { width: number; height: number };
}

async function drawPages(dir: string): Promise<DrawnPage[]> {
  const pages: DrawnPage[] = [];
  for (const [set, { file, pages: numbers }] of SETS.entries()) {
    const drawer = await PdfPageDrawer.open(join(corpusDir, file), undefined);
    try {
      for (const page of numbers) {
        const size = await drawer.pageSize(page);
        const fullEdge = ocrLongEdge(size.width, size.height);
        const raster = await drawer.drawFull(page, fullEdge);
        const png = join(dir, `${set}-${page}.png`);
        await sharp(raster.pixels, {
          raw: { width: raster.width, height: raster.height, channels: raster.channels },
        })
          .png({ compressionLevel: 1 })
          .withMetadata({ density: 300 })
          .toFile(png);
        // Quire's engine gets the drawn pixels as the pool hands them over, with no image decoder in
        // its process: its peak memory is the engine's and the page's, not a PNG library's caches.
        // It asks for the page at the reading resolution (and at 300 dpi for small print), as
        // PDFium draws it for Quire's OCR.
        await writeFile(rawPagePath(png, fullEdge), rawPage(raster));
        const readingEdge = ocrLongEdge(size.width, size.height, READING_DPI);
        await writeFile(rawPagePath(png, readingEdge), rawPage(await drawer.drawFull(page, readingEdge)));
        pages.push({ png, set, size });
      }
    } finally {
      await drawer.close();
    }
  }
  return pages;
}

/** Quire's engine (or Paddle) in a child process that reads pages as they are sent and reports its peak memory. */
function inChild(engine: 'quire' | 'paddle', modelDir?: string): PageReader {
  const runner = join(import.meta.dirname, 'ocrEngineRun.ts');
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', runner, engine, ...(modelDir ? [modelDir] : [])],
    {
      stdio: ['pipe', 'pipe', 'ignore'],
    },
  );
  const replies: string[] = [];
  const waiting: Array<(line: string) => void> = [];
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  child.on('error', () => undefined);
  const onLine = (line: string) => {
    const next = waiting.shift();
    if (next) next(line);
    else replies.push(line);
  };
  createInterface({ input: child.stdout }).on('line', onLine);
  void exited.then(() => waiting.splice(0).forEach((resolve) => resolve('{"error":"the engine exited"}')));
  const reply = () =>
    new Promise<Record<string, unknown>>((resolve) => {
      const take = (line: string) => resolve(JSON.parse(line) as Record<string, unknown>);
      const ready = replies.shift();
      if (ready !== undefined) take(ready);
      else waiting.push(take);
    });
  return {
    name:
      engine === 'paddle'
        ? 'paddle (@gutenye/ocr-node)'
        : `quire (tesseract.js 7, 150 dpi, turn + deskew, ${modelDir ? 'as set up: fast model from the models folder' : 'packaged best_int model'})`,
    async read({ png, size }) {
      child.stdin.write(`${JSON.stringify({ png, size })}\n`);
      const answer = await reply();
      if (typeof answer.error === 'string') throw new Error(answer.error);
      const cpuMs = typeof answer.cpuMs === 'number' ? answer.cpuMs : null;
      return { text: String(answer.text ?? ''), cpuSeconds: cpuMs === null ? null : cpuMs / 1000 };
    },
    async finish() {
      child.stdin.end();
      const answer = await Promise.race([reply(), exited.then(() => ({}))]);
      await exited;
      const memory = answer as { peakRssBytes?: number; startRssBytes?: number };
      return { peak: Number(memory.peakRssBytes ?? 0), start: Number(memory.startRssBytes ?? 0) };
    },
  };
}

/**
 * The CLI as a user runs it: one process per page, one thread. Under GNU time (when installed) its
 * CPU time and peak memory come from the kernel's accounting; otherwise the peak is read from /proc.
 */
function cli(psm: number): PageReader {
  let peak = 0;
  const timed = existsSync(GNU_TIME);
  return {
    name: `tesseract CLI 5 --psm ${psm}${psm === 1 ? ' (with OSD)' : ' (default)'}`,
    read: ({ png }) =>
      new Promise((resolve, reject) => {
        const args = [png, '-', '--psm', String(psm), '-l', 'eng'];
        const usage = `${png}.usage-${psm}`;
        const child = timed
          ? spawn(GNU_TIME, ['-f', '%U %S %M', '-o', usage, 'tesseract', ...args], {
              env: { ...process.env, OMP_THREAD_LIMIT: '1' },
              stdio: ['ignore', 'pipe', 'ignore'],
            })
          : spawn('tesseract', args, {
              env: { ...process.env, OMP_THREAD_LIMIT: '1' },
              stdio: ['ignore', 'pipe', 'ignore'],
            });
        let text = '';
        const sample = timed
          ? undefined
          : setInterval(() => (peak = Math.max(peak, highWaterMark(child.pid))), 20);
        child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
        child.on('error', (error) => {
          clearInterval(sample);
          reject(error);
        });
        child.on('exit', (code) => {
          clearInterval(sample);
          if (code !== 0) return reject(new Error(`tesseract exited with ${code}`));
          if (!timed) return resolve({ text, cpuSeconds: null });
          const [user, system, maxKb] = readFileSync(usage, 'utf8').trim().split(/\s+/).map(Number);
          peak = Math.max(peak, (maxKb ?? 0) * 1024);
          resolve({ text, cpuSeconds: (user ?? 0) + (system ?? 0) });
        });
      }),
    finish: async () => ({ peak, start: 0 }),
  };
}

/**
 * Every page goes to every engine before the next page, in an order that rotates, so a machine whose
 * load changes during the run slows all engines alike and the ratios stay fair.
 */
async function readAll(readers: PageReader[], pages: DrawnPage[]): Promise<EngineResult[]> {
  const texts = readers.map(() => [] as string[]);
  const seconds = readers.map(() => 0);
  const cpuSeconds: Array<number | null> = readers.map(() => 0);
  const errors: Array<string | undefined> = readers.map(() => undefined);
  for (const [at, page] of pages.entries()) {
    for (let turn = 0; turn < readers.length; turn++) {
      const index = (at + turn) % readers.length;
      if (errors[index] !== undefined) continue;
      const started = performance.now();
      try {
        const read = await readers[index]!.read(page);
        seconds[index]! += (performance.now() - started) / 1000;
        texts[index]!.push(read.text);
        const spent = cpuSeconds[index]!;
        cpuSeconds[index] = spent === null || read.cpuSeconds === null ? null : spent + read.cpuSeconds;
      } catch (error) {
        errors[index] = error instanceof Error ? error.message : String(error);
      }
    }
  }
  const results: EngineResult[] = [];
  for (const [index, reader] of readers.entries()) {
    const memory = await reader.finish();
    const error = errors[index];
    results.push({
      engine: reader.name,
      texts: error === undefined ? texts[index]! : null,
      seconds: seconds[index]!,
      cpuSeconds: cpuSeconds[index]!,
      peakRssBytes: memory.peak,
      startRssBytes: memory.start,
      ...(error === undefined ? {} : { error }),
    });
  }
  return results;
}

function highWaterMark(pid: number | undefined): number {
  try {
    const kb = /VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Number(kb) * 1024 : 0;
  } catch {
    return 0;
  }
}

function score(result: EngineResult, pages: Array<{ set: number }>, references: string[]) {
  if (!result.texts) return { wer: null, perFile: {} as Record<string, number> };
  let edits = 0;
  let total = 0;
  const perFile: Record<string, number> = {};
  for (const [set, { file }] of SETS.entries()) {
    const hypothesis = result.texts.filter((_, at) => pages[at]!.set === set).join('\n');
    const counted = wordEdits(references[set]!, hypothesis);
    edits += counted.edits;
    total += counted.referenceWords;
    perFile[file] = Math.round((counted.edits / counted.referenceWords) * 1000) / 1000;
  }
  return { wer: edits / total, perFile };
}

export async function run(): Promise<BenchReport> {
  const dir = await tempDir();
  try {
    const pages = await drawPages(dir.path);
    const references = await Promise.all(
      SETS.map((set) => readFile(join(sharedDir, 'qa', 'text', set.reference), 'utf8')),
    );
    const version = await run$('tesseract', ['--version']).then(
      (out) => out.stdout.split('\n')[0] ?? 'tesseract',
      () => null,
    );
    const fastModelDir = await fastModelAsSetUp(join(dir.path, 'data'));
    const readers = [
      ...(version ? [cli(3), cli(1)] : []),
      // Quire as the app reads after setup (the targets are its); then with the packaged model it falls back to.
      ...(fastModelDir ? [inChild('quire', fastModelDir)] : []),
      inChild('quire'),
      inChild('paddle'),
    ];
    const results = await readAll(readers, pages);
    const baseline = results[0];
    const baselineRate = baseline?.texts ? pages.length / baseline.seconds : null;
    const baselineCpuRate =
      baseline?.texts && baseline.cpuSeconds ? pages.length / baseline.cpuSeconds : null;
    const rows = results.map((result) => {
      const { wer } = score(result, pages, references);
      const rate = result.texts ? pages.length / result.seconds : null;
      const cpuRate = result.texts && result.cpuSeconds ? pages.length / result.cpuSeconds : null;
      return {
        engine: result.engine,
        pages: result.texts ? pages.length : 0,
        wer: wer === null ? null : Math.round(wer * 1000) / 1000,
        pagesPerSecond: rate === null ? null : Math.round(rate * 1000) / 1000,
        speedVsCli: rate !== null && baselineRate ? Math.round((rate / baselineRate) * 100) / 100 : null,
        pagesPerCpuSecond: cpuRate === null ? null : Math.round(cpuRate * 1000) / 1000,
        cpuVsCli:
          cpuRate !== null && baselineCpuRate ? Math.round((cpuRate / baselineCpuRate) * 100) / 100 : null,
        peakMb: result.texts ? Math.round(result.peakRssBytes / 2 ** 20) : null,
        startMb: result.texts ? Math.round(result.startRssBytes / 2 ** 20) : null,
        note: result.error ? `not run: ${result.error.slice(0, 80)}` : '',
      };
    });
    // The first of Quire's rows: as set up when the fast model is there.
    const quire = rows.find((row) => row.engine.startsWith('quire'));
    const targets =
      quire && baselineRate
        ? [
            {
              what: 'word error rate (issue 25: at most 0.05)',
              target: '<= 0.050',
              measured: String(quire.wer),
              met: quire.wer !== null && quire.wer <= 0.05,
            },
            {
              what: 'pages/s vs the tesseract CLI (one thread each)',
              target: '>= 1.0x',
              measured: `${quire.speedVsCli}x`,
              met: (quire.speedVsCli ?? 0) >= 1,
            },
            {
              what: 'peak memory of the OCR process (engine and page)',
              target: '<= 250 MB',
              measured: `${quire.peakMb} MB`,
              met: quire.peakMb !== null && quire.peakMb <= 250,
            },
          ]
        : [];
    return {
      name: 'ocr',
      rows,
      targets,
      details: {
        tesseractCli: version,
        pages: pages.length,
        files: SETS.map((set) => set.file),
        perFileWer: Object.fromEntries(
          results.map((result) => [result.engine, score(result, pages, references).perFile]),
        ),
      },
    };
  } finally {
    await dir.cleanup();
  }
}
