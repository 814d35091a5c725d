import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { selectOcrEngine, availableOcrEngines } from '../../src/core/documents/ocr/ocrEngines';
import { alignTranscription, ocrTextLines } from '../../src/core/documents/ocr/ocrLines';
import { OcrStore, type OcrPageRecord } from '../../src/core/documents/ocr/ocrStore';
import { boxOnPage, turnImage } from '../../src/core/documents/ocr/pageGeometry';
import { ocrLongEdge } from '../../src/core/documents/ocr/ocrPageDrawing';
import { recognizePdfPages } from '../../src/core/documents/ocr/recognizePdfPages';
import { SystemOcrEngine } from '../../src/core/documents/ocr/systemEngine';
import {
  linesFromTsv,
  TesseractEngine,
  tesseractDataDir,
} from '../../src/core/documents/ocr/tesseractEngine';
import type { OcrEngine } from '../../src/core/documents/ocr/types';
import { parsePdf } from '../../src/core/documents/pdf/parsePdf';
import { looksGarbled } from '../../src/core/documents/pdf/textLayerCheck';
import { readerFor, readsScans } from '../../src/core/documents/readers/formatReaders';
import { corpusDir, tempDir, withoutCorpus } from '../helpers/shared';

const noCorpus = withoutCorpus('OCR of corpus scans');

const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
});

const corpus = (path: string) => join(corpusDir, path);
const hashOf = async (path: string) =>
  createHash('sha256')
    .update(await readFile(path))
    .digest('hex');

describe('which pages get OCR', () => {
  it.skipIf(noCorpus)(
    'flags missing, invisible and partial text layers, and leaves born-digital pages alone',
    async () => {
      const reasons = async (path: string) =>
        (await parsePdf(corpus(path))).pages.map((page) => (page.needsOcr ? page.ocrReason : null));
      expect(await reasons('docling/ocr__ocr_test.pdf')).toEqual(['missing']);
      expect(await reasons('docling/pdf__invisible_text_layer.pdf')).toEqual(['invisible']);
      expect(await reasons('unstructured/pdf-with-ocr-text.pdf')).toEqual(['invisible']);
      // A scan whose first page has a small visible layer over the image; the rest carry an OCR layer.
      const scan = await reasons('pdfjs/issue12963.pdf');
      expect(scan[0]).toBe('partial');
      expect(new Set(scan.slice(1))).toEqual(new Set(['invisible']));
      expect(new Set(await reasons('pdfjs/tracemonkey.pdf'))).toEqual(new Set([null]));
      expect(await reasons('pdfjs/rotation.pdf')).toEqual([null, null]);
    },
  );

  it('tells garbled text from ordinary prose', () => {
    const prose =
      'The LinnSequencer is a state-of-the-art composition and performance tool for the professional ' +
      'musician. It is extremely powerful, yet amazingly simple to learn and use.';
    expect(looksGarbled(prose)).toBe(false);
    expect(looksGarbled('¤¤§ ¶¶ ©®± ¤¤§ ¶¶ ©®± ¤¤§ ¶¶ ©®± ¤¤§ ¶¶ ©®± ¤¤§ ¶¶ ©®± ¤¤§ ¶¶ ©®±')).toBe(true);
    expect(looksGarbled('xkcd trp bnm qwrt zxcv plk mnb vcx lkj hgf dsp wrt the')).toBe(true);
  });

  it('reads scans in the formats whose reader can draw their pages for OCR', () => {
    expect(readsScans('pdf')).toBe(true);
    expect(readerFor('pdf').pagesForOcr).toBeTypeOf('function');
    expect(readsScans('markdown')).toBe(false);
    expect(readsScans('text')).toBe(false);
  });

  it('draws pages at the resolution asked (300 dpi unless told) and caps huge ones', () => {
    expect(ocrLongEdge(612, 792)).toBe(3300);
    expect(ocrLongEdge(612, 792, 150)).toBe(1650);
    expect(ocrLongEdge(2384, 3370)).toBe(6000);
  });
});

describe('OCR geometry', () => {
  it('maps boxes from a turned image back onto the page as drawn', () => {
    const width = 40;
    const height = 30;
    const pixels = new Uint8Array(width * height).fill(255);
    // A dark block at x 5..9, y 2..5.
    for (let y = 2; y < 6; y++) for (let x = 5; x < 10; x++) pixels[y * width + x] = 0;
    for (const turn of [0, 90, 180, 270] as const) {
      const turned = turnImage({ pixels, width, height }, turn);
      // Find the block in the turned image, as an engine would.
      let left = Infinity;
      let top = Infinity;
      let right = -Infinity;
      let bottom = -Infinity;
      for (let y = 0; y < turned.height; y++) {
        for (let x = 0; x < turned.width; x++) {
          if (turned.pixels[y * turned.width + x] === 0) {
            left = Math.min(left, x);
            top = Math.min(top, y);
            right = Math.max(right, x + 1);
            bottom = Math.max(bottom, y + 1);
          }
        }
      }
      const box = boxOnPage(
        { x: left, y: top, width: right - left, height: bottom - top },
        { width, height, turn, deskewRadians: 0 },
      );
      expect(box.x * width, `turn ${turn}`).toBeCloseTo(5);
      expect(box.y * height, `turn ${turn}`).toBeCloseTo(2);
      expect(box.width * width, `turn ${turn}`).toBeCloseTo(5);
      expect(box.height * height, `turn ${turn}`).toBeCloseTo(4);
    }
  });
});

describe('engines', () => {
  it('picks Tesseract by default and the OS engine only where it loads', async () => {
    expect(selectOcrEngine('auto').id).toBe('tesseract');
    expect(() => selectOcrEngine('system', { platform: 'linux', loadSystem: () => null })).toThrow(
      /only available on macOS/,
    );
    expect(() => selectOcrEngine('system', { platform: 'darwin', loadSystem: () => null })).toThrow(
      /could not be loaded/,
    );
    // A stand-in for the native module, shaped like @napi-rs/system-ocr 1.1.0 (text, no boxes).
    const native = {
      recognize: async () => ({ text: 'Scanned page\nsecond line', confidence: 0.9 }),
    };
    const engine = selectOcrEngine('system', { platform: 'darwin', loadSystem: () => native });
    expect(engine).toBeInstanceOf(SystemOcrEngine);
    expect(availableOcrEngines({ platform: 'darwin', loadSystem: () => native }).map((e) => e.id)).toEqual([
      'tesseract',
      'system',
    ]);
    expect(availableOcrEngines({ platform: 'linux', loadSystem: () => null }).map((e) => e.id)).toEqual([
      'tesseract',
    ]);
    const page = await engine.recognize(
      { pixels: new Uint8Array(100 * 50).fill(255), width: 100, height: 50 },
      {
        languages: ['eng'],
      },
    );
    expect(page.lines.map((line) => line.words.map((word) => word.text).join(' '))).toEqual([
      'Scanned page',
      'second line',
    ]);
  });

  it('uses line boxes when the OS engine gives them', async () => {
    const native = {
      recognize: async () => ({
        text: 'Two words',
        confidence: 0.8,
        lines: [
          { text: 'Two words', confidence: 0.8, boundingBox: { x: 0.1, y: 0.2, width: 0.5, height: 0.1 } },
        ],
      }),
    };
    const page = await new SystemOcrEngine(native).recognize(
      { pixels: new Uint8Array(200 * 100).fill(255), width: 200, height: 100 },
      { languages: ['eng'] },
    );
    const [first, second] = page.lines[0]!.words;
    expect(first!.box.x).toBeCloseTo(20);
    expect(first!.box.y).toBeCloseTo(20);
    expect(second!.box.x + second!.box.width).toBeLessThanOrEqual(120.01);
  });

  it('reads language data from node_modules only, and refuses a language it does not have', async () => {
    for (const code of ['eng', 'fra']) expect(tesseractDataDir(code)).toMatch(/node_modules/);
    expect(tesseractDataDir('osd', '4.0.0')).toMatch(/node_modules/);
    expect(tesseractDataDir('xyz')).toBeNull();
    const engine = new TesseractEngine();
    try {
      expect(engine.languages()).toContain('eng');
      await expect(
        engine.recognize({ pixels: new Uint8Array(4), width: 2, height: 2 }, { languages: ['xyz'] }),
      ).rejects.toThrow(/no data for xyz/);
    } finally {
      await engine.dispose();
    }
  });
});

describe("Tesseract's TSV", () => {
  it('groups words by block, paragraph and line, and skips empty words and other levels', () => {
    const row = (cells: Array<string | number>) => cells.join('\t');
    const tsv = [
      row([
        'level',
        'page_num',
        'block_num',
        'par_num',
        'line_num',
        'word_num',
        'left',
        'top',
        'width',
        'height',
        'conf',
        'text',
      ]),
      row([1, 1, 0, 0, 0, 0, 0, 0, 2480, 3508, -1, '']),
      row([4, 1, 1, 1, 1, 0, 300, 320, 900, 60, -1, '']),
      row([5, 1, 1, 1, 1, 1, 300, 320, 400, 60, 96.5, 'Docling']),
      row([5, 1, 1, 1, 1, 2, 720, 322, 480, 58, 91, 'bundles']),
      row([5, 1, 1, 1, 1, 3, 1210, 322, 10, 58, 12, ' ']),
      row([5, 1, 1, 1, 2, 1, 300, 400, 200, 60, 88, 'PDF']),
      row([5, 1, 2, 1, 1, 1, 300, 900, 250, 60, 150, 'Markdown']),
    ].join('\n');
    const lines = linesFromTsv(tsv);
    expect(lines.map((line) => line.words.map((word) => word.text))).toEqual([
      ['Docling', 'bundles'],
      ['PDF'],
      ['Markdown'],
    ]);
    expect(lines[0]!.words[1]).toEqual({
      text: 'bundles',
      box: { x: 720, y: 322, width: 480, height: 58 },
      confidence: 0.91,
    });
    expect(lines[2]!.words[0]!.confidence).toBe(1);
  });
});

describe.skipIf(noCorpus)('reading scanned pages', () => {
  it('turns an upside-down page upright and maps its words back onto the page', async () => {
    const store = await tempDir();
    cleanups.push(store.cleanup);
    const path = corpus('docling/ocr__ocr_test_rotated_180.pdf');
    const contentHash = await hashOf(path);
    const results = new OcrStore(store.path);
    const engine = new TesseractEngine();
    try {
      const [outcome] = await recognizePdfPages(
        path,
        { contentHash, pages: [1], engine: 'auto', languages: ['eng'] },
        results,
        async () => engine,
      );
      expect(outcome).toMatchObject({ page: 1, reused: false, problem: null });
      const record = (await results.get(contentHash, 1, { engine: 'tesseract', languages: ['eng'] }))!;
      expect(record.turn).toBe(180);
      expect(record.confidence).toBeGreaterThan(0.8);
      const text = record.lines.map((line) => line.map((word) => word[0]).join(' ')).join(' ');
      expect(text).toContain('Docling bundles PDF document conversion');
      // Upside down, the first words sit at the bottom right of the page as drawn.
      const docling = record.lines[0]![0]!;
      expect(docling[1]).toBeGreaterThan(0.5);
      expect(docling[2]).toBeGreaterThan(0.5);
      // The parsed page takes the OCR words, in page points, with the provenance.
      const parsed = await parsePdf(path, { ocr: new Map([[1, record]]) });
      expect(parsed.pages[0]!.text).toContain('Docling bundles PDF document conversion');
      expect(parsed.pages[0]!.textSource).toMatchObject({
        method: 'ocr',
        engine: 'tesseract',
        languages: ['eng'],
      });
      // Upright, the text sits in the top fifth of the page; upside down, in the bottom fifth.
      for (const box of parsed.chunks.flatMap((chunk) => chunk.boxes)) {
        expect(box.y).toBeGreaterThan(parsed.pages[0]!.height * 0.75);
      }
      // A second run reuses the saved page.
      const [again] = await recognizePdfPages(
        path,
        { contentHash, pages: [1], engine: 'auto', languages: ['eng'] },
        results,
        async () => {
          throw new Error('the engine must not be started for a saved page');
        },
      );
      expect(again!.reused).toBe(true);
    } finally {
      await engine.dispose();
    }
  }, 120_000);

  it('straightens a skewed scan and reads a page whose rotation does not match its image', async () => {
    const store = await tempDir();
    cleanups.push(store.cleanup);
    const results = new OcrStore(store.path);
    const engine = new TesseractEngine();
    const read = async (file: string) => {
      const path = corpus(file);
      const contentHash = await hashOf(path);
      await recognizePdfPages(
        path,
        { contentHash, pages: [1], engine: 'auto', languages: ['eng'] },
        results,
        async () => engine,
      );
      const record = (await results.get(contentHash, 1, { engine: 'tesseract', languages: ['eng'] }))!;
      const parsed = await parsePdf(path, { ocr: new Map([[1, record]]) });
      return { record, page: parsed.pages[0]!, chunks: parsed.chunks };
    };
    try {
      const skewed = await read('ocrmypdf/skew.pdf');
      expect(Math.abs(skewed.record.deskewRadians)).toBeGreaterThan(0.01);
      expect(skewed.page.text).toContain(
        'The LinnSequencer is a state-of-the-art composition and performance',
      );
      const mismatch = await read('docling/ocr__sample_with_rotation_mismatch.pdf');
      expect(mismatch.page.text).toContain('THE SLEREXE COMPANY LIMITED');
      expect(mismatch.page.text).toContain('Permit me to introduce you to the facility of facsimile');
      // The letterhead's words sit in the top fifth of the page as shown, where the highlight goes.
      const heading = mismatch.chunks.find((chunk) => chunk.text.includes('SLEREXE'))!;
      const box = heading.boxes.find((b) => b.y < mismatch.page.height / 2)!;
      expect(box.y).toBeLessThan(mismatch.page.height * 0.2);
    } finally {
      await engine.dispose();
    }
  }, 180_000);

  it('a page the engine fails on costs that page only', async () => {
    const store = await tempDir();
    cleanups.push(store.cleanup);
    const path = corpus('docling/ocr__nemotron_multipage.pdf');
    const contentHash = await hashOf(path);
    const results = new OcrStore(store.path);
    let calls = 0;
    // An engine that reads the first page and breaks on the second, as a crashing engine would. A
    // page is two calls: a few of its lines (read sure enough to settle its orientation), then the page.
    const flaky: OcrEngine = {
      id: 'tesseract',
      label: 'flaky',
      wordBoxes: true,
      languages: () => ['eng'],
      recognize: async () => {
        calls++;
        if (calls === 3) throw new Error('engine crashed');
        return {
          deskewRadians: 0,
          lines: [
            {
              words: [{ text: 'readable', box: { x: 100, y: 100, width: 200, height: 40 }, confidence: 0.9 }],
            },
          ],
        };
      },
      dispose: async () => undefined,
    };
    const outcomes = await recognizePdfPages(
      path,
      { contentHash, pages: [1, 2], engine: 'auto', languages: ['eng'] },
      results,
      async () => flaky,
    );
    expect(outcomes.map((o) => o.problem)).toEqual([null, 'OCR failed on this page: engine crashed']);
    const parsed = await parsePdf(path, {
      ocr: await results.all(contentHash, { engine: 'tesseract', languages: ['eng'] }),
    });
    expect(parsed.pages[0]!.text).toBe('readable');
    expect(parsed.pages[1]!.text).toBe('');
    expect(parsed.pages[1]!.textSource).toMatchObject({
      method: 'none',
      ocr: { reason: 'missing', problem: 'OCR failed on this page: engine crashed', words: 0 },
    });
    // Pages 3 and 4 were not asked for: they still wait.
    expect(parsed.pages[2]!.textSource?.ocr).toBeUndefined();
  }, 60_000);
});

describe('OCR text', () => {
  const record = (lines: Array<Array<[string, number, number, number, number]>>): OcrPageRecord => ({
    version: 1,
    engine: 'tesseract',
    languages: ['eng'],
    turn: 0,
    deskewRadians: 0,
    confidence: 0.5,
    lines: lines.map((line) => line.map(([text, x, y, w, h]) => [text, x, y, w, h, 0.5])),
    problem: null,
    transcription: null,
  });

  it('becomes lines in page points, split into cells at wide gaps', () => {
    const lines = ocrTextLines(
      record([
        [
          ['Total', 0.1, 0.1, 0.1, 0.02],
          ['42', 0.7, 0.1, 0.05, 0.02],
        ],
      ]),
      600,
      800,
    );
    expect(lines[0]!.text).toBe('Total\t42');
    expect(lines[0]!.box).toMatchObject({ x: 60, y: 80 });
    expect(lines[0]!.box.width).toBeCloseTo(390);
  });

  it("takes a vision model's transcription over OCR's words and keeps OCR's boxes", () => {
    const lines = alignTranscription(
      record([
        [
          ['Tbe', 0.1, 0.1, 0.05, 0.02],
          ['qvick', 0.2, 0.1, 0.06, 0.02],
        ],
        [['fox', 0.1, 0.2, 0.05, 0.02]],
      ]).lines,
      'The quick brown fox',
    );
    expect(lines.map((line) => line.map((word) => word[0]))).toEqual([['The', 'quick', 'brown'], ['fox']]);
    expect(lines[1]![0]![2]).toBe(0.2);
  });
});
