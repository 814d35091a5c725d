/**
 * One OCR engine serving the bench page by page, in its own process so its peak memory is its own:
 * `tsx scripts/bench/ocrEngineRun.ts <quire [fastModelDir]|paddle>` reads one JSON line `{ "png": path, "size":
 * { width, height } }` (the page in points) per page
 * on stdin and answers each with `{ text, ms, cpuMs }` (or `{ error }`; cpuMs counts every thread of
 * the process, the engine's own included); when stdin closes it prints
 * `{ peakRssBytes, startRssBytes }` (its peak, and its size before the engine started) and exits. Started by scripts/bench/ocr.ts, which alternates engines page by page.
 */
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { readFile } from 'node:fs/promises';
import { releasePixels } from '../../src/core/documents/ocr/pageGeometry';
import { recognizePage } from '../../src/core/documents/ocr/recognizePage';
import { drawForOcr } from '../../src/core/documents/ocr/ocrPageDrawing';
import { selectOcrEngine } from '../../src/core/documents/ocr/ocrEngines';
import type { OcrPageSource } from '../../src/core/documents/ocr/types';
import { fromRawPage, rawPagePath } from './ocrRawPage';

type ReadPage = (png: string, size: { width: number; height: number }) => Promise<string>;

/**
 * This process's peak resident memory. Linux's VmHWM is this process's own; getrusage's maxRSS can
 * also hold the size of the bench process it was forked from (it said 137 MB at a start of 72).
 */
function peakRss(): number {
  try {
    const kb = /VmHWM:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1];
    if (kb) return Number(kb) * 1024;
  } catch {
    // Not Linux: getrusage's figure.
  }
  return process.resourceUsage().maxRSS * 1024;
}

const startRssBytes = peakRss();

/**
 * Quire's path: the page drawn at the reading resolution (or finer for small print, from the pages
 * the bench drew beside the PNG), orientation, deskew and Tesseract in WebAssembly.
 */
function quire(modelDir?: string): { read: ReadPage; close: () => Promise<void> } {
  // The app's one selector, given the fast model's folder as the OCR settings resolved it (or none).
  const engine = selectOcrEngine('auto', undefined, modelDir ?? null);
  return {
    read: async (png, size) => {
      // The files read for the page are freed after it, as recognizePages frees the pages it draws.
      const files: Uint8Array[] = [];
      const source: OcrPageSource = {
        hasPage: async () => true,
        pageSize: async () => size,
        drawFull: async (_, longEdge) => {
          files.push(await readFile(rawPagePath(png, longEdge)));
          return fromRawPage(files.at(-1)!);
        },
        close: async () => undefined,
      };
      try {
        const drawn = await drawForOcr(source, 1);
        const record = await recognizePage(engine, drawn.raster, {
          languages: ['eng'],
          dpi: drawn.dpi,
          drawFiner: drawn.drawFiner,
        });
        return record.lines.map((line) => line.map((word) => word[0]).join(' ')).join('\n');
      } finally {
        files.forEach(releasePixels);
      }
    },
    close: () => engine.dispose(),
  };
}

/** PaddleOCR models in ONNX through @gutenye/ocr-node, when it is installed (it is not a dependency). */
function paddle(): { read: ReadPage; close: () => Promise<void> } {
  type Paddle = { detect(path: string): Promise<Array<{ text: string }>> };
  let ocr: Promise<Paddle> | null = null;
  return {
    read: async (png) => {
      const name = '@gutenye/ocr-node';
      ocr ??= import(name).then((module: { default: { create(): Promise<Paddle> } }) =>
        module.default.create(),
      );
      return (await (await ocr).detect(png)).map((line) => line.text).join('\n');
    },
    close: async () => undefined,
  };
}

const engine = process.argv[2] === 'paddle' ? paddle() : quire(process.argv[3]);
for await (const line of createInterface({ input: process.stdin })) {
  if (!line.trim()) continue;
  const { png, size } = JSON.parse(line) as { png: string; size: { width: number; height: number } };
  const started = performance.now();
  const cpu = process.cpuUsage();
  try {
    const text = await engine.read(png, size);
    const used = process.cpuUsage(cpu);
    console.log(
      JSON.stringify({ text, ms: performance.now() - started, cpuMs: (used.user + used.system) / 1000 }),
    );
  } catch (error) {
    console.log(JSON.stringify({ error: error instanceof Error ? error.message : String(error) }));
  }
}
await engine.close();
console.log(JSON.stringify({ peakRssBytes: peakRss(), startRssBytes }));
process.exit(0);
