/**
 * One OCR engine serving the bench page by page, in its own process so its peak memory is its own:
 * `tsx scripts/bench/ocrEngineRun.ts <quire|paddle>` reads one JSON line `{ "png": path }` per page
 * on stdin and answers each with `{ text, ms, cpuMs }` (or `{ error }`; cpuMs counts every thread of
 * the process, the engine's own included); when stdin closes it prints
 * `{ peakRssBytes, startRssBytes }` (its peak, and its size before the engine started) and exits. Started by scripts/bench/ocr.ts, which alternates engines page by page.
 */
import { createInterface } from 'node:readline';
import { readFile } from 'node:fs/promises';
import { recognizePage } from '../../src/core/documents/ocr/recognizePage';
import { TesseractEngine } from '../../src/core/documents/ocr/tesseractEngine';
import { fromRawPage, rawPagePath } from './ocrRawPage';

type ReadPage = (png: string) => Promise<string>;

const startRssBytes = process.resourceUsage().maxRSS * 1024;

/** Quire's path: the drawn page's pixels through reading resolution, orientation, deskew and Tesseract in WebAssembly. */
function quire(): { read: ReadPage; close: () => Promise<void> } {
  const engine = new TesseractEngine();
  return {
    read: async (png) => {
      const record = await recognizePage(engine, fromRawPage(await readFile(rawPagePath(png))), {
        languages: ['eng'],
        dpi: 300,
      });
      return record.lines.map((line) => line.map((word) => word[0]).join(' ')).join('\n');
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

const engine = process.argv[2] === 'paddle' ? paddle() : quire();
for await (const line of createInterface({ input: process.stdin })) {
  if (!line.trim()) continue;
  const { png } = JSON.parse(line) as { png: string };
  const started = performance.now();
  const cpu = process.cpuUsage();
  try {
    const text = await engine.read(png);
    const used = process.cpuUsage(cpu);
    console.log(
      JSON.stringify({ text, ms: performance.now() - started, cpuMs: (used.user + used.system) / 1000 }),
    );
  } catch (error) {
    console.log(JSON.stringify({ error: error instanceof Error ? error.message : String(error) }));
  }
}
await engine.close();
console.log(JSON.stringify({ peakRssBytes: process.resourceUsage().maxRSS * 1024, startRssBytes }));
process.exit(0);
