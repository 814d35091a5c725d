import type { BoundingBox } from '../../../shared/domain/search';
import type { LineCell, TextLine } from '../layout/lines';
import { unionBox } from '../layout/model';
import type { OcrPageRecord, StoredWord } from './ocrStore';

// A gap wider than this many line heights separates table cells (as for a text layer's runs).
const CELL_GAP_LINES = 1.2;
// A recognised line's box is about one font size tall plus ascenders and descenders.
const LINE_HEIGHT_PER_FONT_SIZE = 1.15;

/**
 * A page's OCR words as lines of the layout model, in page points (origin top-left), so headings,
 * tables, chunks and their boxes come out of the same code as a text layer's.
 */
export function ocrTextLines(record: OcrPageRecord, pageWidth: number, pageHeight: number): TextLine[] {
  const lines: TextLine[] = [];
  const source = record.transcription
    ? alignTranscription(record.lines, record.transcription.text)
    : record.lines;
  for (const words of source) {
    const placed = words.map((word) => ({ text: word[0], box: toPoints(word, pageWidth, pageHeight) }));
    if (placed.length === 0) continue;
    const height = Math.max(...placed.map((word) => word.box.height));
    const cells: LineCell[] = [];
    let cell: typeof placed = [];
    const close = () => {
      if (cell.length > 0) {
        cells.push({
          text: cell.map((word) => word.text).join(' '),
          box: unionBox(cell.map((word) => word.box)),
        });
      }
      cell = [];
    };
    for (const word of placed) {
      const previous = cell[cell.length - 1];
      if (previous && word.box.x - (previous.box.x + previous.box.width) > CELL_GAP_LINES * height) close();
      cell.push(word);
    }
    close();
    lines.push({
      text: cells.map((c) => c.text).join('\t'),
      box: unionBox(cells.map((c) => c.box)),
      cells,
      fontSize: height / LINE_HEIGHT_PER_FONT_SIZE,
      rtl: false,
    });
  }
  return lines;
}

function toPoints(word: StoredWord, pageWidth: number, pageHeight: number): BoundingBox {
  const [, x, y, width, height] = word;
  return { x: x * pageWidth, y: y * pageHeight, width: width * pageWidth, height: height * pageHeight };
}

/** Whether most of `line` lies inside one of `boxes` (a text-layer line already covers it). */
export function coveredBy(line: TextLine, boxes: readonly BoundingBox[]): boolean {
  const area = line.box.width * line.box.height;
  if (!(area > 0)) return false;
  return boxes.some((box) => {
    const width = Math.min(line.box.x + line.box.width, box.x + box.width) - Math.max(line.box.x, box.x);
    const height = Math.min(line.box.y + line.box.height, box.y + box.height) - Math.max(line.box.y, box.y);
    return width > 0 && height > 0 && (width * height) / area > 0.5;
  });
}

/**
 * A vision model's transcription laid over OCR's words: each transcribed word takes the box of the
 * OCR word it aligns with (word-level edit distance), or of its neighbour when it has none, and the
 * lines follow OCR's. Boxes stay OCR's; only the text changes.
 */
export function alignTranscription(lines: readonly StoredWord[][], transcript: string): StoredWord[][] {
  const ocr = lines.flatMap((words, line) => words.map((word) => ({ word, line })));
  const said = transcript.split(/\s+/).filter(Boolean);
  if (ocr.length === 0 || said.length === 0) return lines.map((words) => [...words]);
  const cost = (a: string, b: string) => (normalise(a) === normalise(b) ? 0 : 1);
  // dp[i][j]: cost of aligning the first i transcribed words with the first j OCR words.
  const rows = said.length + 1;
  const columns = ocr.length + 1;
  const dp = new Uint32Array(rows * columns);
  for (let i = 0; i < rows; i++) dp[i * columns] = i;
  for (let j = 0; j < columns; j++) dp[j] = j;
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < columns; j++) {
      dp[i * columns + j] = Math.min(
        dp[(i - 1) * columns + j - 1]! + cost(said[i - 1]!, ocr[j - 1]!.word[0]),
        dp[(i - 1) * columns + j]! + 1,
        dp[i * columns + j - 1]! + 1,
      );
    }
  }
  // Walk back: each transcribed word learns which OCR word (if any) it stands for.
  const match = new Array<number>(said.length).fill(-1);
  for (let i = said.length, j = ocr.length; i > 0 && j > 0;) {
    const here = dp[i * columns + j]!;
    if (here === dp[(i - 1) * columns + j - 1]! + cost(said[i - 1]!, ocr[j - 1]!.word[0])) {
      match[i - 1] = j - 1;
      i--;
      j--;
    } else if (here === dp[(i - 1) * columns + j]! + 1) i--;
    else j--;
  }
  // Words without a partner sit with the nearest one before them (or the first OCR word).
  const out: StoredWord[][] = lines.map(() => []);
  let last = 0;
  for (const [at, text] of said.entries()) {
    if (match[at]! >= 0) last = match[at]!;
    const { word, line } = ocr[last]!;
    out[line]!.push([text, word[1], word[2], word[3], word[4], word[5]]);
  }
  return out.filter((words) => words.length > 0);
}

function normalise(word: string): string {
  return word.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');
}
