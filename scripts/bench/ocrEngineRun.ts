/**
 * One OCR engine over the bench's pages, in its own process so its peak memory is its own:
 * `tsx scripts/bench/ocrEngineRun.ts <quire|paddle> <pages.json>` prints JSON
 * `{ texts, seconds, peakRssBytes, error? }`. Started by scripts/bench/ocr.ts.
 */
import { readFile } from 'node:fs/promises';
import sharp from 'sharp';
import { recognizePage } from '../../src/core/documents/ocr/recognizePage';
import { TesseractEngine } from '../../src/core/documents/ocr/tesseractEngine';

interface BenchPage {
  png: string;
}

async function quire(pages: BenchPage[]): Promise<string[]> {
  const engine = new TesseractEngine();
  const texts: string[] = [];
  try {
    for (const page of pages) {
      const { data, info } = await sharp(page.png).raw().toBuffer({ resolveWithObject: true });
      const record = await recognizePage(
        engine,
        {
          pixels: new Uint8Array(data),
          channels: info.channels as 3 | 4,
          width: info.width,
          height: info.height,
        },
        { languages: ['eng'], dpi: 300 },
      );
      texts.push(record.lines.map((line) => line.map((word) => word[0]).join(' ')).join('\n'));
    }
  } finally {
    await engine.dispose();
  }
  return texts;
}

/** PaddleOCR models in ONNX through @gutenye/ocr-node, when it is installed (it is not a dependency). */
async function paddle(pages: BenchPage[]): Promise<string[]> {
  const name = '@gutenye/ocr-node';
  const module = (await import(name)) as {
    default: { create(): Promise<{ detect(path: string): Promise<Array<{ text: string }>> }> };
  };
  const ocr = await module.default.create();
  const texts: string[] = [];
  for (const page of pages) texts.push((await ocr.detect(page.png)).map((line) => line.text).join('\n'));
  return texts;
}

const [engine, manifest] = process.argv.slice(2);
const pages = JSON.parse(await readFile(manifest!, 'utf8')) as BenchPage[];
const started = performance.now();
try {
  const texts = engine === 'paddle' ? await paddle(pages) : await quire(pages);
  const seconds = (performance.now() - started) / 1000;
  console.log(JSON.stringify({ texts, seconds, peakRssBytes: process.resourceUsage().maxRSS * 1024 }));
} catch (error) {
  console.log(JSON.stringify({ error: error instanceof Error ? error.message : String(error) }));
}
process.exit(0);
