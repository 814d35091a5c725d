import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { colModernVBertSettings } from '../../src/core/models/onnx/colModernVBertSettings';
import {
  PromptTokenizer,
  QUERY_AUGMENTATION,
  imageTokensText,
} from '../../src/core/models/onnx/colModernVBertPrompts';
import { preprocessImage } from '../../src/core/models/onnx/idefics3Images';
import { corpusDir, tempDir, withoutCorpus } from '../helpers/shared';
import { tinyPageEmbedderFiles } from '../helpers/tinyPageEmbedder';

const noCorpus = withoutCorpus('ColModernVBERT preprocessing of corpus pages');

/*
 * ColModernVBERT's preprocessing on real page images (drawn by poppler's pdftoppm, not by Quire) and
 * on images built to make layout mistakes visible. Expected grids and pixel statistics are derived
 * here from the page sizes and from sharp's own statistics of the source image.
 */

const settings = colModernVBertSettings(tinyPageEmbedderFiles());
let dir: Awaited<ReturnType<typeof tempDir>>;

beforeAll(async () => {
  dir = await tempDir('quire-preprocess-');
});
afterAll(() => dir.cleanup());

/** Draws one page of a corpus PDF to PNG with pdftoppm at `dpi`. */
function drawPage(relativePath: string, page: number, dpi: number): string {
  const prefix = join(dir.path, `${relativePath.replace(/\W+/g, '_')}-${page}-${dpi}`);
  execFileSync('pdftoppm', [
    '-png',
    '-r',
    String(dpi),
    '-f',
    String(page),
    '-l',
    String(page),
    '-singlefile',
    join(corpusDir, relativePath),
    prefix,
  ]);
  return `${prefix}.png`;
}

/** The tile grid for an image of this size, computed step by step from the published algorithm. */
function expectedGrid(width: number, height: number): { rows: number; cols: number } {
  const long = 2048;
  const scaledW = width >= height ? long : Math.floor((long * width) / height);
  const scaledH = width >= height ? Math.floor((long * height) / width) : long;
  const evenW = scaledW + (scaledW % 2);
  const evenH = scaledH + (scaledH % 2);
  if (evenW >= evenH) {
    const w = Math.ceil(evenW / 512) * 512;
    return { cols: w / 512, rows: Math.ceil(Math.floor(w / (evenW / evenH)) / 512) };
  }
  const h = Math.ceil(evenH / 512) * 512;
  return { rows: h / 512, cols: Math.ceil(Math.floor(h * (evenW / evenH)) / 512) };
}

function channelMean(pixels: Float32Array, tile: number, channel: number, size: number): number {
  const plane = size * size;
  const start = (tile * 3 + channel) * plane;
  let sum = 0;
  for (let i = start; i < start + plane; i++) sum += pixels[i]!;
  return sum / plane;
}

describe.skipIf(noCorpus)('ColModernVBERT image preprocessing on corpus pages', () => {
  for (const [file, page] of [
    ['pdfjs/tracemonkey.pdf', 1],
    ['unstructured/layout-parser-paper-fast.pdf', 2],
  ] as const) {
    it(`cuts ${file} p${page} into the grid its size implies, and keeps its brightness`, async () => {
      const png = drawPage(file, page, 72);
      const source = await sharp(png).metadata();
      const result = await preprocessImage(await readFile(png), settings.image);
      const grid = expectedGrid(source.width!, source.height!);
      expect({ rows: result.rows, cols: result.cols }).toEqual(grid);
      expect(result.tiles).toBe(grid.rows * grid.cols + 1);
      expect(result.pixels.length).toBe(result.tiles * 3 * 512 * 512);
      let min = Infinity;
      let max = -Infinity;
      for (const value of result.pixels) {
        if (value < min) min = value;
        if (value > max) max = value;
      }
      expect(min).toBeGreaterThanOrEqual(-1);
      expect(max).toBeLessThanOrEqual(1);

      // Resampling keeps a page's mean brightness: the grid tiles (before the global view) and the
      // global view each average to the source's mean, mapped from [0, 255] to [-1, 1].
      const stats = await sharp(png).removeAlpha().stats();
      for (let channel = 0; channel < 3; channel++) {
        const expected = (stats.channels[channel]!.mean / 255 - 0.5) / 0.5;
        let gridMean = 0;
        for (let t = 0; t < result.tiles - 1; t++) gridMean += channelMean(result.pixels, t, channel, 512);
        gridMean /= result.tiles - 1;
        expect(Math.abs(gridMean - expected), `channel ${channel} of the grid`).toBeLessThan(0.02);
        expect(Math.abs(channelMean(result.pixels, result.tiles - 1, channel, 512) - expected)).toBeLessThan(
          0.02,
        );
      }
    });
  }

  it('sends a small image through as one square tile with no global view', async () => {
    const settingsWithoutResize = { ...settings.image, resize: false };
    const png = drawPage('pdfjs/tracemonkey.pdf', 1, 20);
    const result = await preprocessImage(await readFile(png), settingsWithoutResize);
    expect(result).toMatchObject({ tiles: 1, rows: 0, cols: 0, tileSize: 512 });
  });
});

describe('ColModernVBERT image layout', () => {
  it('orders tiles row by row, channels first, with the global view last', async () => {
    // 2048 x 1024: two rows of four tiles after scaling; the tile at row 0, column 2 is black, the rest white.
    const width = 2048;
    const height = 1024;
    const raw = Buffer.alloc(width * height * 3, 255);
    for (let y = 0; y < 512; y++) raw.fill(0, (y * width + 1024) * 3, (y * width + 1536) * 3);
    const png = await sharp(raw, { raw: { width, height, channels: 3 } })
      .png()
      .toBuffer();
    const result = await preprocessImage(png, settings.image);
    expect({ rows: result.rows, cols: result.cols, tiles: result.tiles }).toEqual({
      rows: 2,
      cols: 4,
      tiles: 9,
    });
    for (let tile = 0; tile < 8; tile++) {
      const mean = channelMean(result.pixels, tile, 0, 512);
      expect(mean, `tile ${tile}`).toBeCloseTo(tile === 2 ? -1 : 1, 1);
    }
    // The global view squeezes 1 black tile of 8 into the square: an eighth of its area is black.
    const globalMean = channelMean(result.pixels, 8, 1, 512);
    expect(globalMean).toBeCloseTo(1 - 2 / 8, 1);
  });

  it('puts each colour in its own channel plane, normalised to [-1, 1]', async () => {
    const red = await sharp({
      create: { width: 300, height: 200, channels: 3, background: { r: 255, g: 0, b: 0 } },
    })
      .png()
      .toBuffer();
    const result = await preprocessImage(red, settings.image);
    expect(channelMean(result.pixels, 0, 0, 512)).toBeCloseTo(1, 3);
    expect(channelMean(result.pixels, 0, 1, 512)).toBeCloseTo(-1, 3);
    expect(channelMean(result.pixels, 0, 2, 512)).toBeCloseTo(-1, 3);
  });

  it('reports an unreadable image instead of guessing', async () => {
    await expect(preprocessImage(new Uint8Array([1, 2, 3, 4]), settings.image)).rejects.toThrow();
  });
});

describe('ColModernVBERT prompts and tokens', () => {
  const files = tinyPageEmbedderFiles();
  const tokenizer = new PromptTokenizer(files.tokenizer, files.tokenizerConfig, settings.text);

  it('gives every tile its row and column marker and 64 image tokens, then the global view', () => {
    const text = imageTokensText(2, 3, 64);
    expect(text.match(/<row_\d+_col_\d+>/g)).toEqual([
      '<row_1_col_1>',
      '<row_1_col_2>',
      '<row_1_col_3>',
      '<row_2_col_1>',
      '<row_2_col_2>',
      '<row_2_col_3>',
    ]);
    expect(text.match(/<image>/g)).toHaveLength(7 * 64);
    expect(
      text.endsWith(
        '<fake_token_around_image><global-img>' + '<image>'.repeat(64) + '<fake_token_around_image>',
      ),
    ).toBe(true);
    const ids = tokenizer.imageIds(2, 3, 7);
    const imageId = 3; // '<image>' in the tiny tokenizer
    expect(ids.filter((id) => id === imageId)).toHaveLength(7 * 64);
    expect(() => tokenizer.imageIds(2, 3, 6)).toThrow(/image tokens for 6 tiles/);
  });

  it('augments a query with ten end-of-utterance tokens and pads on the left', () => {
    const endOfUtterance = 2;
    const query = tokenizer.queryIds('trace tree');
    expect(query).toHaveLength('trace tree'.length + 10);
    expect(query.slice(-10)).toEqual(new Array(10).fill(endOfUtterance));
    expect(QUERY_AUGMENTATION.split('<end_of_utterance>')).toHaveLength(11);
    const batch = tokenizer.batch([tokenizer.queryIds('ab'), query]);
    expect(batch.length).toBe(query.length);
    const firstRowMask = Array.from(batch.attentionMask.subarray(0, batch.length), Number);
    expect(firstRowMask.indexOf(1)).toBe(query.length - 12);
    expect(Number(batch.inputIds[0])).toBe(0);
  });
});
