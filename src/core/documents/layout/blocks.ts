import type { TextLine, LineCell } from './lines';
import { sizeCarryingMostText, type BlockKind, type LayoutBlock } from './model';

// A line at least this much larger than the body text, and short, is a heading.
const HEADING_SIZE_RATIO = 1.15;
const HEADING_MAX_WORDS = 20;
// Lines further apart than this many line heights belong to different blocks.
const PARAGRAPH_GAP_LINES = 0.7;
// Table rows are often spaced wider than prose; their aligned cells already tie them together.
const TABLE_ROW_GAP_LINES = 3;
// Cells of two rows are aligned when their left edges, right edges or centres are this close (points).
const ALIGN_TOLERANCE = 4;

const LABEL_MAX_WORDS = 8;
const FIGURE = /^(?:[(+-]?[$€£]?\(?\d[\d.,]*%?\)?%?|[—–-]+|n\/?a)$/iu;
const CURRENCY = /^[$€£]$/u;

const LIST_MARKER = /^\s*(?:[•●○◦▪■□‣∙·\-–—*]|\(?\d{1,3}[.)]|\(?[a-zA-Z][.)]|\([ivxIVX]{1,4}\))\s+\S/u;

/** The body text size of a set of lines: the size carrying the most letters. */
export function bodyFontSize(lines: readonly TextLine[]): number {
  return sizeCarryingMostText(lines, 0);
}

/**
 * Groups lines into blocks: headings (larger than the body text), list items (a marker starts them),
 * table runs (consecutive lines with two or more cells aligned on the previous line's) and paragraphs.
 */
export function groupBlocks(lines: readonly TextLine[], bodySize: number): LayoutBlock[] {
  const kinds = lines.map((_, i) => lineKind(lines, i, bodySize));
  const blocks: LayoutBlock[] = [];
  let current: { kind: BlockKind; lines: TextLine[] } | undefined;
  lines.forEach((line, i) => {
    const kind = kinds[i]!;
    const previous = lines[i - 1];
    const continues =
      current !== undefined &&
      previous !== undefined &&
      current.kind === kind &&
      (kind === 'table'
        ? rowsAlign(previous.cells, line.cells) || kinds[i - 1] === 'table'
        : kind !== 'list' || !LIST_MARKER.test(line.text)) &&
      (kind === 'table' ||
        Math.abs(line.fontSize - previous.fontSize) <= 0.15 * Math.max(line.fontSize, previous.fontSize)) &&
      closeBelow(previous, line, kind === 'table' ? TABLE_ROW_GAP_LINES : PARAGRAPH_GAP_LINES);
    if (continues) {
      current!.lines.push(line);
      return;
    }
    // A wrapped list item continues as plain lines under its marker.
    if (
      current?.kind === 'list' &&
      kind === 'paragraph' &&
      previous &&
      closeBelow(previous, line, PARAGRAPH_GAP_LINES) &&
      line.box.x > current.lines[0]!.box.x + 2
    ) {
      current.lines.push(line);
      return;
    }
    current = { kind, lines: [line] };
    blocks.push(current);
  });
  return blocks.map((block) => ({
    kind: block.kind,
    lines: block.lines.map(({ text, box }) => ({ text, box })),
  }));
}

function lineKind(lines: readonly TextLine[], i: number, bodySize: number): BlockKind {
  const line = lines[i]!;
  const previous = lines[i - 1];
  const next = lines[i + 1];
  const isRow = (candidate: TextLine | undefined, other: TextLine) =>
    candidate !== undefined && candidate.cells.length >= 2 && rowsAlign(candidate.cells, other.cells);
  if (line.cells.length >= 2 && (isRow(previous, line) || isRow(next, line))) return 'table';
  const figures = (at: number) => isFigureRow(lines[at]);
  const label = (at: number) => lines[at] !== undefined && wordCount(lines[at].text) <= LABEL_MAX_WORDS;
  // Rows of figures, and short labels between them ("Operating expenses"), make a table.
  if (
    figures(i) &&
    (figures(i - 1) || figures(i + 1) || (label(i - 1) && figures(i - 2)) || (label(i + 1) && figures(i + 2)))
  ) {
    return 'table';
  }
  if (label(i) && figures(i - 1) && figures(i + 1)) return 'table';
  if (LIST_MARKER.test(line.text)) return 'list';
  const words = wordCount(line.text);
  if (bodySize > 0 && line.fontSize >= HEADING_SIZE_RATIO * bodySize && words <= HEADING_MAX_WORDS)
    return 'heading';
  return 'paragraph';
}

function wordCount(text: string): number {
  return text.split(/\s+/).filter(Boolean).length;
}

/**
 * A line ending in two or more figures (amounts, percentages, years, dashes for nil) is a table row:
 * pdfjs joins a row's cells into one text item, so the figures are the surest sign of a row.
 */
export function isFigureRow(line: TextLine | undefined): boolean {
  if (!line) return false;
  const tokens = line.text.split(/\s+/).filter((token) => token !== '' && !CURRENCY.test(token));
  let figures = 0;
  for (let i = tokens.length - 1; i >= 0 && FIGURE.test(tokens[i]!); i--) figures++;
  return figures >= 2;
}

/** Two rows belong to one table when at least two cells line up (numbers align right, labels left). */
export function rowsAlign(a: readonly LineCell[], b: readonly LineCell[]): boolean {
  if (a.length < 2 || b.length < 2) return false;
  let aligned = 0;
  for (const cell of b) {
    const matches = a.some(
      (other) =>
        Math.abs(other.box.x - cell.box.x) <= ALIGN_TOLERANCE ||
        Math.abs(other.box.x + other.box.width - (cell.box.x + cell.box.width)) <= ALIGN_TOLERANCE ||
        Math.abs(other.box.x + other.box.width / 2 - (cell.box.x + cell.box.width / 2)) <= ALIGN_TOLERANCE,
    );
    if (matches) aligned++;
  }
  return aligned >= 2;
}

/** The next line sits just below this one (not far down, not back up in another column). */
function closeBelow(previous: TextLine, line: TextLine, maxGapLines: number): boolean {
  const lineHeight = Math.max(previous.box.height, 1);
  const gap = line.box.y - (previous.box.y + previous.box.height);
  if (gap > maxGapLines * lineHeight) return false;
  if (line.box.y + line.box.height < previous.box.y) return false;
  const overlapX =
    Math.min(previous.box.x + previous.box.width, line.box.x + line.box.width) -
    Math.max(previous.box.x, line.box.x);
  return overlapX > 0;
}
