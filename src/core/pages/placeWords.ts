import type { SKRSContext2D } from '@napi-rs/canvas';
import { CELL_PADDING_X, CELL_PADDING_Y, LINE_STYLES } from '../../shared/domain/pageLayout';
import type { PageTextLine, PageWord } from '../../shared/domain/pages';
import type { TextRun } from '../documents/pdf/textRuns';
import type { OcrPageRecord } from '../documents/ocr/ocrStore';
import { createCanvas } from '../documents/render/canvas';
import { LAID_OUT_FONT } from '../documents/render/laidOutRaster';

/*
 * Word boxes for the three kinds of page. Quire's own layout is measured with the font its image is
 * drawn with, so those boxes are exact; OCR words carry their own boxes; a PDF text item that holds
 * several words is split by measuring each word with a stand-in font, so those boxes are estimates.
 */

let measurer: SKRSContext2D | undefined;
function context(): SKRSContext2D {
  measurer ??= createCanvas(1, 1).getContext('2d');
  return measurer;
}

/** Each word of `text` with its left offset and width, measured in the context's current font. */
function measureWords(text: string): Array<{ text: string; left: number; width: number }> {
  const ctx = context();
  const words: Array<{ text: string; left: number; width: number }> = [];
  for (const match of text.matchAll(/\S+/g)) {
    const left = ctx.measureText(text.slice(0, match.index)).width;
    words.push({ text: match[0], left, width: ctx.measureText(match[0]).width });
  }
  return words;
}

/** Words of a line Quire drew at `x`, squeezed into `width` as the drawing squeezes it. */
function wordsAt(
  text: string,
  x: number,
  top: number,
  height: number,
  width: number,
  line: number,
): PageWord[] {
  const measured = context().measureText(text).width;
  const scale = measured > width && measured > 0 ? width / measured : 1;
  return measureWords(text).map((word) => ({
    text: word.text,
    box: { x: x + word.left * scale, y: top, width: word.width * scale, height },
    estimated: false,
    line,
  }));
}

export function laidOutWords(lines: readonly PageTextLine[]): PageWord[] {
  const words: PageWord[] = [];
  let lineNumber = 0;
  for (const line of lines) {
    const metrics = LINE_STYLES[line.style];
    context().font = `${metrics.italic ? 'italic ' : ''}${metrics.bold ? 'bold ' : ''}${metrics.size}px ${LAID_OUT_FONT}`;
    const { x, y, width, height } = line.box;
    if (line.cells) {
      // A table row reads cell by cell; each cell's lines are one line of words.
      for (const cell of line.cells) {
        cell.lines.forEach((text, row) => {
          const top = y + CELL_PADDING_Y + row * metrics.lineHeight;
          const left = x + cell.x + CELL_PADDING_X;
          const cellWidth = cell.width - 2 * CELL_PADDING_X;
          words.push(...wordsAt(text, left, top, metrics.lineHeight, cellWidth, lineNumber++));
        });
      }
      continue;
    }
    words.push(...wordsAt(line.text, x, y, height, width, lineNumber++));
  }
  return words;
}

/** OCR words as the engine placed them, scaled from shares of the page to points. */
export function recognizedWords(record: OcrPageRecord, pageWidth: number, pageHeight: number): PageWord[] {
  return record.lines.flatMap((line, lineNumber) =>
    line
      .filter(([text]) => text.trim() !== '')
      .map(([text, x, y, width, height]) => ({
        text,
        box: { x: x * pageWidth, y: y * pageHeight, width: width * pageWidth, height: height * pageHeight },
        estimated: false,
        line: lineNumber,
      })),
  );
}

/** PDF text items split into words; a run holding one word keeps its own box. */
export function textLayerWords(runs: readonly TextRun[]): PageWord[] {
  const words: PageWord[] = [];
  let lineNumber = -1;
  let lastBaseline = Number.NaN;
  for (const run of runs) {
    if (run.text.trim() === '') continue;
    if (!(Math.abs(run.baseline - lastBaseline) < run.fontSize * 0.5)) lineNumber++;
    lastBaseline = run.baseline;
    const pieces = [...run.text.matchAll(/\S+/g)];
    if (pieces.length === 1 && run.text.trim() === pieces[0]?.[0]) {
      words.push({ text: run.text.trim(), box: boxOf(run), estimated: false, line: lineNumber });
      continue;
    }
    words.push(...splitRun(run, lineNumber));
  }
  return words;
}

function boxOf(run: TextRun) {
  return { x: run.x, y: run.y, width: run.width, height: run.height };
}

function splitRun(run: TextRun, line: number): PageWord[] {
  const total = estimatedWidth(run.text);
  if (!(total > 0)) return [];
  const along = run.vertical ? run.height : run.width;
  const scale = along / total;
  const words: PageWord[] = [];
  let measuredUpTo = 0;
  let left = 0;
  for (const match of run.text.matchAll(/\S+/g)) {
    left += estimatedWidth(run.text.slice(measuredUpTo, match.index));
    const wordWidth = estimatedWidth(match[0]);
    const start = left * scale;
    const size = wordWidth * scale;
    left += wordWidth;
    measuredUpTo = match.index + match[0].length;
    const box = run.vertical
      ? { x: run.x, y: run.y + start, width: run.width, height: size }
      : run.rtl
        ? { x: run.x + run.width - start - size, y: run.y, width: size, height: run.height }
        : { x: run.x + start, y: run.y, width: size, height: run.height };
    words.push({ text: match[0], box, estimated: true, line });
  }
  return words;
}

// A PDF run's own font is not at hand, so its words are placed by a stand-in font's character widths.
// Measuring each character once (not each prefix of each run) keeps a page to a few hundred canvas
// calls: the viewer asks for many pages at once and this runs on the main thread.
const characterWidths = new Map<string, number>();
// A file of many distinct characters must not grow the map without end.
const MAX_REMEMBERED_CHARACTERS = 8192;

/** The stand-in font's width of `text`, in units only meaningful as shares of another such width. */
function estimatedWidth(text: string): number {
  let width = 0;
  for (const character of text) {
    let known = characterWidths.get(character);
    if (known === undefined) {
      const ctx = context();
      ctx.font = '100px sans-serif';
      known = ctx.measureText(character).width;
      if (characterWidths.size >= MAX_REMEMBERED_CHARACTERS) characterWidths.clear();
      characterWidths.set(character, known);
    }
    width += known;
  }
  return width;
}
