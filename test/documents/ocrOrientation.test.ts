import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { pageOcrOf } from '../../src/core/documents/ocr/ocrProvenance';
import { greyScaled, releasePixels, turnImage } from '../../src/core/documents/ocr/pageGeometry';
import { readingScale, recognizePage } from '../../src/core/documents/ocr/recognizePage';
import { OcrStore } from '../../src/core/documents/ocr/ocrStore';
import { ocrLongEdge } from '../../src/core/documents/ocr/ocrPageDrawing';
import { recognizePages } from '../../src/core/documents/ocr/recognizePdfPages';
import { TesseractEngine } from '../../src/core/documents/ocr/tesseractEngine';
import { pitchOf, textLineEvidence } from '../../src/core/documents/ocr/textLines';
import type {
  GreyImage,
  OcrEngine,
  OcrPageSource,
  RecognizeOptions,
} from '../../src/core/documents/ocr/types';
import { PdfPageDrawer } from '../../src/core/documents/render/pdfPageDrawer';
import type { RasterPage } from '../../src/core/documents/render/raster';
import { corpusDir, tempDir, withoutCorpus } from '../helpers/shared';

const noCorpus = withoutCorpus('OCR of corpus scans');

/** A white page with dark bars where lines of text would be: `slope` pixels down per pixel across. */
function barsPage(width: number, height: number, pitch: number, slope = 0): GreyImage {
  const pixels = new Uint8Array(width * height).fill(255);
  for (let top = pitch; top + pitch < height; top += pitch) {
    for (let x = width * 0.1; x < width * 0.9; x++) {
      // Words: ink in runs with gaps, each bar half a pitch tall.
      if (Math.floor(x / 12) % 5 === 4) continue;
      const y0 = Math.round(top + x * slope);
      for (let y = y0; y < y0 + pitch / 2; y++) {
        if (y >= 0 && y < height) pixels[y * width + Math.floor(x)] = 20;
      }
    }
  }
  return { pixels, width, height };
}

describe("the ink's text lines", () => {
  it('tell which way lines run, how far apart they are and how they lean', () => {
    const level = barsPage(600, 800, 20);
    expect(textLineEvidence(level)).toMatchObject({ axis: 'across', skewRadians: 0, linePitch: 20 });
    expect(textLineEvidence(turnImage(level, 90)).axis).toBe('down');
    expect(textLineEvidence(turnImage(level, 270)).axis).toBe('down');
    // Lines falling to the right are straightened by turning the page back: Tesseract's sign, negative.
    const leaning = textLineEvidence(barsPage(600, 800, 20, 0.03));
    expect(leaning.axis).toBe('across');
    expect(leaning.skewRadians).toBeCloseTo(-Math.atan(0.03), 2);
    expect(textLineEvidence(barsPage(600, 800, 20, -0.05)).skewRadians).toBeCloseTo(Math.atan(0.05), 2);
  });

  it('say nothing about a blank page', () => {
    const blank = { pixels: new Uint8Array(400 * 500).fill(255), width: 400, height: 500 };
    expect(textLineEvidence(blank)).toEqual({ axis: null, skewRadians: 0, linePitch: null });
  });

  it('find the distance that repeats in a profile', () => {
    const bins = Float64Array.from({ length: 300 }, (_, at) => (at % 14 < 6 ? 50 : 2));
    expect(pitchOf(bins)).toBe(14);
    expect(pitchOf(new Float64Array(300).fill(3))).toBeNull();
  });
});

describe('reading resolution', () => {
  it('averages the pixels a scaled-down pixel covers and keeps the dpi true', () => {
    const raster: RasterPage = {
      width: 4,
      height: 2,
      channels: 3,
      pixels: Uint8Array.from([
        0, 0, 0, 200, 200, 200, 255, 255, 255, 255, 255, 255, 0, 0, 0, 200, 200, 200, 255, 255, 255, 255, 255,
        255,
      ]),
    };
    const half = greyScaled(raster, 0.5, 300);
    expect(half).toMatchObject({ width: 2, height: 1, dpi: 150 });
    expect([...half.pixels]).toEqual([100, 255]);
    expect(greyScaled(raster, 1, 300).pixels.length).toBe(8);
  });

  it('reads at about 150 dpi, finer when the lines sit close, never above the drawn resolution', () => {
    const small = { pixels: new Uint8Array(0), width: 1000, height: 1294 };
    const evidence = (linePitch: number | null) => ({ axis: 'across' as const, skewRadians: 0, linePitch });
    const onCopy = (drawnPitch: number) => drawnPitch * (1000 / 2550);
    // 10-point text at 300 dpi: lines about 50 px apart as drawn, 25 at 150 dpi.
    expect(readingScale(2550, 300, small, evidence(onCopy(50)))).toBeCloseTo(0.5);
    // 6-point print: lines 30 px apart as drawn, 15 at 150 dpi: read where they are 18 px apart.
    expect(readingScale(2550, 300, small, evidence(onCopy(30)))).toBeCloseTo(18 / 30);
    expect(readingScale(2550, 300, small, evidence(2))).toBe(1);
    expect(readingScale(2550, 300, small, evidence(null))).toBeCloseTo(0.5);
    expect(readingScale(2550, undefined, small, evidence(15))).toBe(1);
  });
});

/** An engine that counts what it is asked for around a real one. */
function counting(engine: OcrEngine) {
  const calls = { recognize: [] as Array<{ width: number; height: number }>, detect: 0 };
  const wrapped: OcrEngine = {
    id: engine.id,
    label: engine.label,
    wordBoxes: engine.wordBoxes,
    languages: () => engine.languages(),
    recognize: (image: GreyImage, options: RecognizeOptions) => {
      calls.recognize.push({ width: image.width, height: image.height });
      return engine.recognize(image, options);
    },
    detectOrientation: (image, signal) => {
      calls.detect++;
      return engine.detectOrientation!(image, signal);
    },
    dispose: () => engine.dispose(),
  };
  return { engine: wrapped, calls };
}

/** A grey image as the RGB raster a drawer gives. */
function rgb(page: GreyImage): RasterPage {
  return {
    width: page.width,
    height: page.height,
    channels: 3,
    pixels: Uint8Array.from({ length: page.pixels.length * 3 }, (_, at) => page.pixels[Math.floor(at / 3)]!),
  };
}

async function drawn(file: string): Promise<RasterPage> {
  const drawer = await PdfPageDrawer.open(join(corpusDir, file), undefined);
  try {
    const size = await drawer.pageSize(1);
    return await drawer.drawFull(1, ocrLongEdge(size.width, size.height));
  } finally {
    await drawer.close();
  }
}

describe('orientation, only as much as the page needs', () => {
  const tesseract = new TesseractEngine();
  afterAll(() => tesseract.dispose());

  it.skipIf(noCorpus)(
    'reads an upright page once after a few of its lines, without the orientation detector',
    async () => {
      const { engine, calls } = counting(tesseract);
      const record = await recognizePage(engine, await drawn('docling/ocr__ocr_test.pdf'), {
        languages: ['eng'],
        dpi: 300,
      });
      expect(record.turn).toBe(0);
      expect(record.turnGuessed).toBeUndefined();
      expect(calls.detect).toBe(0);
      // One probe of a few lines, then the page, read at about 150 dpi (the page was drawn at 300).
      expect(calls.recognize).toHaveLength(2);
      expect(calls.recognize[0]!.height).toBeLessThan(calls.recognize[1]!.height / 4);
      expect(calls.recognize[1]!.width).toBeLessThan(1300);
      const text = record.lines.map((line) => line.map((word) => word[0]).join(' ')).join(' ');
      expect(text).toContain('Docling bundles PDF document conversion');
    },
    120_000,
  );

  it.skipIf(noCorpus)(
    'turns pages on their side the right way from their lines, without the orientation detector',
    async () => {
      for (const [file, turn] of [
        ['docling/ocr__ocr_test_rotated_90.pdf', 90],
        ['docling/ocr__ocr_test_rotated_270.pdf', 270],
      ] as const) {
        const { engine, calls } = counting(tesseract);
        const record = await recognizePage(engine, await drawn(file), { languages: ['eng'], dpi: 300 });
        expect(record.turn, file).toBe(turn);
        expect(record.turnGuessed, file).toBeUndefined();
        expect(calls.detect, file).toBe(0);
        const text = record.lines.map((line) => line.map((word) => word[0]).join(' ')).join(' ');
        expect(text, file).toContain('Docling bundles PDF document conversion');
      }
    },
    180_000,
  );

  it('asks the detector when the lines read alike both ways, and says the turn is a guess when it cannot tell', async () => {
    let detectorAsked = 0;
    // An engine that reads everything equally well and whose detector never knows.
    const undecided: OcrEngine = {
      id: 'tesseract',
      label: 'undecided',
      wordBoxes: true,
      languages: () => ['eng'],
      recognize: async () => ({
        deskewRadians: 0,
        lines: [{ words: [{ text: 'word', box: { x: 10, y: 10, width: 40, height: 12 }, confidence: 0.6 }] }],
      }),
      detectOrientation: async () => {
        detectorAsked++;
        return null;
      },
      dispose: async () => undefined,
    };
    const record = await recognizePage(undecided, rgb(barsPage(850, 1100, 30)), {
      languages: ['eng'],
      dpi: 100,
    });
    expect(detectorAsked).toBe(1);
    expect(record.turn).toBe(0);
    expect(record.turnGuessed).toBe(true);
    // ...and the page's provenance carries it to the page viewer.
    expect(pageOcrOf(record, 'missing', 1).orientationGuessed).toBe(true);
  });

  it("keeps the detector's sure answer even when the ink's lines say otherwise", async () => {
    // Lines that run down (table rules can look like that), probes that cannot tell, a sure detector.
    const engine: OcrEngine = {
      id: 'tesseract',
      label: 'sure detector',
      wordBoxes: true,
      languages: () => ['eng'],
      recognize: async () => ({
        deskewRadians: 0,
        lines: [{ words: [{ text: 'cell', box: { x: 10, y: 10, width: 40, height: 12 }, confidence: 0.5 }] }],
      }),
      detectOrientation: async () => ({ turn: 0, confidence: 12 }),
      dispose: async () => undefined,
    };
    const record = await recognizePage(engine, rgb(turnImage(barsPage(850, 1100, 30), 90)), {
      languages: ['eng'],
      dpi: 100,
    });
    expect(record.turn).toBe(0);
    expect(record.turnGuessed).toBeUndefined();
  });
});

describe('pages drawn for OCR', () => {
  it('free their pixels when done, but never a view into another buffer', () => {
    const own = new Uint8Array(1000).fill(7);
    releasePixels(own);
    expect(own.length).toBe(0);
    const shared = new Uint8Array(1000).fill(7);
    const view = shared.subarray(10, 500);
    releasePixels(view);
    expect(view.length).toBe(490);
    expect(shared[999]).toBe(7);
  });

  const tesseract = new TesseractEngine();
  afterAll(() => tesseract.dispose());

  /** The first page of `file` through a source that records the long edges it is drawn at. */
  async function readThrough(file: string, scale: number) {
    const drawer = await PdfPageDrawer.open(join(corpusDir, file), undefined);
    const edges: number[] = [];
    const drawings: RasterPage[] = [];
    const source: OcrPageSource = {
      hasPage: (page) => drawer.hasPage(page),
      // `scale` below 1 says the page is smaller than it is: its print then is smaller too.
      pageSize: async (page) => {
        const size = await drawer.pageSize(page);
        return { width: size.width * scale, height: size.height * scale };
      },
      drawFull: async (page, longEdge) => {
        edges.push(longEdge);
        drawings.push(await drawer.drawFull(page, longEdge));
        return drawings.at(-1)!;
      },
      close: () => drawer.close(),
    };
    const dir = await tempDir();
    try {
      const store = new OcrStore(dir.path);
      const options = {
        contentHash: 'ab'.repeat(32),
        pages: [1],
        engine: 'auto' as const,
        languages: ['eng'],
      };
      const [outcome] = await recognizePages(
        'ocr_test.pdf',
        async () => source,
        options,
        store,
        async () => tesseract,
      );
      const record = await store.get(options.contentHash, 1, { engine: 'tesseract', languages: ['eng'] });
      const text = record!.lines.map((line) => line.map((word) => word[0]).join(' ')).join(' ');
      return { edges, drawings, outcome, text };
    } finally {
      await dir.cleanup();
    }
  }

  it.skipIf(noCorpus)(
    'are drawn once, at the resolution they are read at',
    async () => {
      const { edges, drawings, outcome, text } = await readThrough('docling/ocr__ocr_test.pdf', 1);
      // A4 at 150 dpi, not at 300.
      expect(edges).toEqual([ocrLongEdge(595.2, 841.92, 150)]);
      expect(outcome).toMatchObject({ problem: null });
      // Freed once read, not left for the collector.
      expect(drawings.map((drawing) => drawing.pixels.length)).toEqual([0]);
      expect(text).toContain('Docling bundles PDF document conversion');
    },
    120_000,
  );

  it.skipIf(noCorpus)(
    'are drawn again finer when their print is too small to read at that resolution',
    async () => {
      // Said to be half its size, linn.pdf's 10-point print is 5-point: its lines sit about 10 px apart
      // at 150 dpi, too close to read, so the page is drawn again at 300.
      const { edges, drawings, text } = await readThrough('ocrmypdf/linn.pdf', 0.5);
      expect(edges).toEqual([ocrLongEdge(306, 396, 150), ocrLongEdge(306, 396, 300)]);
      expect(text).toContain('LinnSequencer');
      expect(drawings.map((drawing) => drawing.pixels.length)).toEqual([0, 0]);
    },
    180_000,
  );
});
