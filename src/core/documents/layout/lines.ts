import type { BoundingBox } from '../../../shared/domain/search';
import type { TextRun } from '../pdf/textRuns';
import { sizeCarryingMostText, unionBox } from './model';

/** A run of text between wide gaps on a line: a table cell, or a whole line of prose. */
export interface LineCell {
  text: string;
  box: BoundingBox;
}

/** A visual line of a PDF page: runs sharing a baseline, in reading order. */
export interface TextLine {
  text: string;
  box: BoundingBox;
  cells: LineCell[];
  fontSize: number;
  rtl: boolean;
}

// A gap wider than this many font sizes separates table cells (or columns written on one baseline).
const CELL_GAP_EMS = 1.2;
// A gap wider than this many font sizes gets a space, when the PDF did not draw one.
const WORD_GAP_EMS = 0.12;

/**
 * Groups runs into lines. Runs join the line being built while they stay on its baseline: content-stream
 * order keeps columns apart (a PDF writes one column's lines before the next), and runs on one baseline
 * are then ordered by x, right to left when most of the line's letters are right-to-left.
 */
export function groupLines(runs: readonly TextRun[]): TextLine[] {
  const lines: TextLine[] = [];
  let current: TextRun[] = [];
  for (const run of runs) {
    const last = current[current.length - 1];
    if (last && !run.vertical && !last.vertical && sameBaseline(last, run)) {
      current.push(run);
      continue;
    }
    if (current.length > 0) lines.push(buildLine(current));
    current = [run];
  }
  if (current.length > 0) lines.push(buildLine(current));
  return lines.filter((line) => line.text.trim() !== '');
}

function sameBaseline(a: TextRun, b: TextRun): boolean {
  const top = Math.max(a.y, b.y);
  const bottom = Math.min(a.y + a.height, b.y + b.height);
  const overlap = bottom - top;
  return (
    overlap >= 0.5 * Math.min(a.height, b.height) &&
    Math.abs(a.baseline - b.baseline) < 0.6 * Math.max(a.fontSize, b.fontSize)
  );
}

function buildLine(runs: TextRun[]): TextLine {
  const letters = (run: TextRun) => run.text.replace(/\s/g, '').length;
  const rtlLetters = runs.filter((run) => run.rtl).reduce((sum, run) => sum + letters(run), 0);
  const allLetters = runs.reduce((sum, run) => sum + letters(run), 0);
  const rtl = rtlLetters * 2 > allLetters;
  const vertical = runs.length === 1 && runs[0]!.vertical;
  const ordered = vertical
    ? runs
    : [...runs].sort((p, q) => (rtl ? q.x + q.width - (p.x + p.width) : p.x - q.x));
  const fontSize = dominantFontSize(runs);

  const cells: LineCell[] = [];
  let cellRuns: TextRun[] = [];
  let cellText = '';
  const closeCell = () => {
    const text = cellText.trim();
    if (text !== '') cells.push({ text, box: unionBox(cellRuns) });
    cellRuns = [];
    cellText = '';
  };
  let previous: TextRun | undefined;
  for (const run of ordered) {
    if (previous) {
      const gap = rtl ? previous.x - (run.x + run.width) : run.x - (previous.x + previous.width);
      const em = Math.max(previous.fontSize, run.fontSize);
      if (gap > CELL_GAP_EMS * em && run.text.trim() !== '') closeCell();
      else if (gap > WORD_GAP_EMS * em && !/\s$/.test(cellText) && !/^\s/.test(run.text)) cellText += ' ';
    }
    if (run.text.trim() !== '' || cellText !== '') {
      cellText += run.text;
      cellRuns.push(run);
    }
    previous = run;
  }
  closeCell();
  const text = cells.map((cell) => cell.text.replace(/\s+/g, ' ')).join('\t');
  return { text, box: unionBox(cells.map((cell) => cell.box)), cells, fontSize, rtl };
}

/** The font size carrying most of the line's letters, to the half point. */
function dominantFontSize(runs: readonly TextRun[]): number {
  return sizeCarryingMostText(runs, runs[0]?.fontSize ?? 0, (size) => Math.round(size * 2) / 2);
}
