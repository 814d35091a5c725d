/**
 * `npm run bench -- ocr`: word error rate, pages per second and peak memory of Quire's OCR (Tesseract
 * 5 in WebAssembly with orientation detection and deskew) against Debian's `tesseract` CLI on the
 * same pages in the same run, and of PaddleOCR (@gutenye/ocr-node) when it is installed. The pages
 * are those with reference text in shared/qa/text, drawn once at 300 dpi; every engine reads the
 * same PNGs, one page at a time on one thread (OMP_THREAD_LIMIT=1 for the CLI).
 */
import { execFile, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { ocrLongEdge } from '../../src/core/documents/ocr/recognizePdfPages';
import { PdfPageDrawer } from '../../src/core/documents/render/pdfPageDrawer';
import { corpusDir, sharedDir, tempDir } from '../../test/helpers/shared';
import type { BenchReport } from './report';
import { wordEdits } from './wordErrorRate';

const run$ = promisify(execFile);

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
  peakRssBytes: number;
  error?: string;
}

async function drawPages(dir: string): Promise<Array<{ png: string; set: number }>> {
  const pages: Array<{ png: string; set: number }> = [];
  for (const [set, { file, pages: numbers }] of SETS.entries()) {
    const drawer = await PdfPageDrawer.open(join(corpusDir, file), undefined);
    try {
      for (const page of numbers) {
        const size = await drawer.pageSize(page);
        const raster = await drawer.drawFull(page, ocrLongEdge(size.width, size.height));
        const png = join(dir, `${set}-${page}.png`);
        await sharp(raster.pixels, {
          raw: { width: raster.width, height: raster.height, channels: raster.channels },
        })
          .png({ compressionLevel: 1 })
          .withMetadata({ density: 300 })
          .toFile(png);
        pages.push({ png, set });
      }
    } finally {
      await drawer.close();
    }
  }
  return pages;
}

/** Quire's engine (or Paddle) in a child process that reports its own peak memory. */
async function inChild(engine: 'quire' | 'paddle', manifest: string): Promise<EngineResult> {
  const runner = join(import.meta.dirname, 'ocrEngineRun.ts');
  const { stdout } = await run$(process.execPath, ['--import', 'tsx', runner, engine, manifest], {
    maxBuffer: 64 * 2 ** 20,
  });
  const out = JSON.parse(stdout.trim().split('\n').pop()!) as Partial<EngineResult>;
  return {
    engine: engine === 'quire' ? 'quire (tesseract.js 7, OSD + deskew)' : 'paddle (@gutenye/ocr-node)',
    texts: out.texts ?? null,
    seconds: out.seconds ?? 0,
    peakRssBytes: out.peakRssBytes ?? 0,
    ...(out.error ? { error: out.error } : {}),
  };
}

/** The CLI, one process per page; its peak memory is read from /proc while it runs. */
async function cli(pages: Array<{ png: string }>, psm: number): Promise<EngineResult> {
  const texts: string[] = [];
  let peak = 0;
  const started = performance.now();
  try {
    for (const page of pages) {
      texts.push(
        await new Promise<string>((resolve, reject) => {
          const child = spawn('tesseract', [page.png, '-', '--psm', String(psm), '-l', 'eng'], {
            env: { ...process.env, OMP_THREAD_LIMIT: '1' },
            stdio: ['ignore', 'pipe', 'ignore'],
          });
          let text = '';
          const sample = setInterval(() => (peak = Math.max(peak, highWaterMark(child.pid))), 20);
          child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
          child.on('error', reject);
          child.on('exit', (code) => {
            clearInterval(sample);
            if (code === 0) resolve(text);
            else reject(new Error(`tesseract exited with ${code}`));
          });
        }),
      );
    }
  } catch (error) {
    return {
      engine: `tesseract CLI --psm ${psm}`,
      texts: null,
      seconds: 0,
      peakRssBytes: 0,
      error: String(error),
    };
  }
  return {
    engine: `tesseract CLI 5 --psm ${psm}${psm === 1 ? ' (with OSD)' : ' (default)'}`,
    texts,
    seconds: (performance.now() - started) / 1000,
    peakRssBytes: peak,
  };
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
    const manifest = join(dir.path, 'pages.json');
    await writeFile(manifest, JSON.stringify(pages));
    const references = await Promise.all(
      SETS.map((set) => readFile(join(sharedDir, 'qa', 'text', set.reference), 'utf8')),
    );
    const version = await run$('tesseract', ['--version']).then(
      (out) => out.stdout.split('\n')[0] ?? 'tesseract',
      () => null,
    );
    const results: EngineResult[] = [];
    if (version) {
      results.push(await cli(pages, 3));
      results.push(await cli(pages, 1));
    }
    results.push(await inChild('quire', manifest));
    results.push(await inChild('paddle', manifest));
    const baseline = results[0];
    const baselineRate = baseline?.texts ? pages.length / baseline.seconds : null;
    const baselineWer = baseline ? score(baseline, pages, references).wer : null;
    const rows = results.map((result) => {
      const { wer } = score(result, pages, references);
      const rate = result.texts ? pages.length / result.seconds : null;
      return {
        engine: result.engine,
        pages: result.texts ? pages.length : 0,
        wer: wer === null ? null : Math.round(wer * 1000) / 1000,
        pagesPerSecond: rate === null ? null : Math.round(rate * 1000) / 1000,
        speedVsCli: rate !== null && baselineRate ? Math.round((rate / baselineRate) * 100) / 100 : null,
        peakMb: result.texts ? Math.round(result.peakRssBytes / 2 ** 20) : null,
        note: result.error ? `not run: ${result.error.slice(0, 80)}` : '',
      };
    });
    const quire = rows.find((row) => row.engine.startsWith('quire'));
    const targets =
      quire && baselineWer !== null && baselineRate
        ? [
            {
              what: 'word error rate vs the tesseract CLI',
              target: `<= ${baselineWer.toFixed(3)}`,
              measured: String(quire.wer),
              met: quire.wer !== null && quire.wer <= baselineWer,
            },
            {
              what: 'pages/s vs the tesseract CLI (one thread each)',
              target: '>= 0.5x',
              measured: `${quire.speedVsCli}x`,
              met: (quire.speedVsCli ?? 0) >= 0.5,
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
