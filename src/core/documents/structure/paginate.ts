import { CELL_PADDING_X, CELL_PADDING_Y, LINE_STYLES } from '../../../shared/domain/pageLayout';
import type { PageLineStyle, PageTextCell, PageTextLine } from '../../../shared/domain/pages';
import type { BlockKind } from '../layout/model';
import { hasText, type Block, type Unit } from './model';
import { textWidth, wrapText } from './measure';

/*
 * Units onto nominal pages (points, US Letter): a `fixed` unit is one page that grows as tall as its
 * content, a `flow` unit fills pages of Letter height. Every line gets its box here, once: the text
 * index, the drawn page and the text view all use these boxes.
 */

export const PAGE_WIDTH = 612;
export const PAGE_HEIGHT = 792;
export const MARGIN = 54;
/** A fixed unit with a wide table may widen its page up to this. */
const MAX_PAGE_WIDTH = 1224;
const LIST_INDENT = 18;
const NOTE_INDENT = 10;
const MIN_COLUMN = 28;
const MAX_NATURAL_COLUMN = 260;

export interface PlannedLine extends PageTextLine {
  /** The block this line belongs to, counted on its page (a block split over pages is one per page). */
  block: number;
  blockKind: BlockKind;
}

export interface PagePlan {
  /** 1-based, across the whole document. */
  page: number;
  width: number;
  height: number;
  lines: PlannedLine[];
}

/** A line before it has a place: x and width are final, y is relative to its row. */
interface RowLine extends Omit<PageTextLine, 'box'> {
  x: number;
  dy: number;
  width: number;
  height: number;
}

/** Lines that stay together on one page (a wrapped line, a table row). */
interface Row {
  height: number;
  lines: RowLine[];
}

interface LaidBlock {
  kind: BlockKind | 'pageBreak';
  before: number;
  after: number;
  rows: Row[];
  /** Table header rows, repeated at the top of a page when the table continues there. */
  headerRows: Row[];
  keepWithNext: boolean;
}

export function paginate(units: readonly { unit: Unit }[] | readonly Unit[]): PagePlan[] {
  const plans: PagePlan[] = [];
  for (const entry of units) {
    const unit = 'unit' in entry ? entry.unit : entry;
    for (const plan of paginateUnit(unit, plans.length + 1)) plans.push(plan);
  }
  return plans;
}

function paginateUnit(unit: Unit, firstPage: number): PagePlan[] {
  const width = pageWidthFor(unit);
  const contentWidth = width - 2 * MARGIN;
  const blocks = unit.blocks
    .filter((block) => block.kind === 'pageBreak' || hasText(block))
    .map((block) => layBlock(block, contentWidth));
  const flow = unit.pages === 'flow';
  const pages: PagePlan[] = [];
  let page: PagePlan;
  let y = 0;
  let blockOnPage = -1;
  let bodyLines = 0;

  const openPage = (continued: boolean) => {
    page = { page: firstPage + pages.length, width, height: PAGE_HEIGHT, lines: [] };
    pages.push(page);
    y = MARGIN;
    blockOnPage = -1;
    bodyLines = 0;
    if (unit.label) {
      const label = continued ? `${unit.label} (continued)` : unit.label;
      const style = LINE_STYLES.label;
      for (const text of wrapText(label, contentWidth, style.size)) {
        page.lines.push(
          placed(
            { style: 'label', text },
            MARGIN,
            y,
            contentWidth,
            style.lineHeight,
            ++blockOnPage,
            'paragraph',
          ),
        );
        y += style.lineHeight;
      }
      y += style.after;
    }
  };
  const bottom = () => PAGE_HEIGHT - MARGIN;
  const fits = (height: number) => !flow || bodyLines === 0 || y + height <= bottom();
  const placeRow = (row: Row, blockIndex: number, kind: BlockKind) => {
    for (const line of row.lines) {
      const { x, dy, width: lineWidth, height, ...rest } = line;
      page.lines.push(placed(rest, MARGIN + x, y + dy, lineWidth, height, blockIndex, kind));
    }
    y += row.height;
    bodyLines++;
  };

  openPage(false);
  blocks.forEach((block, at) => {
    if (block.kind === 'pageBreak') {
      if (flow && bodyLines > 0) openPage(true);
      return;
    }
    const kind = block.kind;
    const next = blocks[at + 1];
    const firstHeight = block.rows[0]?.height ?? 0;
    const keptHeight =
      block.keepWithNext && next && next.kind !== 'pageBreak' ? (next.rows[0]?.height ?? 0) : 0;
    if (!fits(block.before + firstHeight + keptHeight)) openPage(true);
    if (bodyLines > 0) y += block.before;
    let blockIndex = ++blockOnPage;
    block.rows.forEach((row, rowAt) => {
      if (!fits(row.height)) {
        openPage(true);
        blockIndex = ++blockOnPage;
        const repeatsHeader = rowAt >= block.headerRows.length;
        if (repeatsHeader) for (const header of block.headerRows) placeRow(header, blockIndex, kind);
      }
      placeRow(row, blockIndex, kind);
    });
    y += block.after;
  });
  for (const plan of pages) {
    const contentBottom = Math.max(0, ...plan.lines.map((line) => line.box.y + line.box.height));
    plan.height = flow ? PAGE_HEIGHT : Math.max(PAGE_HEIGHT, Math.ceil(contentBottom + MARGIN));
  }
  return pages;
}

function placed(
  line: Omit<PageTextLine, 'box'>,
  x: number,
  y: number,
  width: number,
  height: number,
  block: number,
  blockKind: BlockKind,
): PlannedLine {
  return { ...line, box: { x, y, width, height }, block, blockKind };
}

/** Fixed units widen for tables that would not fit a Letter page; flow units keep Letter width. */
function pageWidthFor(unit: Unit): number {
  if (unit.pages === 'flow') return PAGE_WIDTH;
  let widest = 0;
  for (const block of unit.blocks) {
    if (block.kind !== 'table') continue;
    widest = Math.max(
      widest,
      naturalColumnWidths(block.rows).reduce((sum, w) => sum + w, 0),
    );
  }
  return Math.min(MAX_PAGE_WIDTH, Math.max(PAGE_WIDTH, Math.ceil(widest + 2 * MARGIN)));
}

function layBlock(block: Block, contentWidth: number): LaidBlock {
  const base = { headerRows: [] as Row[], keepWithNext: false };
  switch (block.kind) {
    case 'heading': {
      const style = headingStyle(block.level);
      const metrics = LINE_STYLES[style];
      return {
        ...base,
        kind: 'heading',
        before: metrics.before,
        after: metrics.after,
        rows: textRows(block.text, style, 0, contentWidth),
        keepWithNext: true,
      };
    }
    case 'paragraph':
      return {
        ...base,
        kind: 'paragraph',
        before: 0,
        after: LINE_STYLES.body.after,
        rows: textRows(block.text, 'body', 0, contentWidth),
      };
    case 'list': {
      const rows: Row[] = [];
      const counters: number[] = [];
      for (const item of block.items) {
        counters.length = item.depth + 1;
        counters[item.depth] = (counters[item.depth] ?? 0) + 1;
        const indent = LIST_INDENT * (item.depth + 1);
        const itemRows = textRows(item.text, 'listItem', indent, contentWidth - indent);
        const marker = item.ordered ? `${counters[item.depth]}.` : ['•', '◦', '▪'][item.depth % 3]!;
        itemRows[0]!.lines[0]!.marker = marker;
        itemRows[itemRows.length - 1]!.height += LINE_STYLES.listItem.after;
        rows.push(...itemRows);
      }
      return {
        ...base,
        kind: 'list',
        before: 0,
        after: LINE_STYLES.body.after - LINE_STYLES.listItem.after,
        rows,
      };
    }
    case 'table': {
      const rows = tableRows(block.rows, block.headerRows, contentWidth);
      return {
        ...base,
        kind: 'table',
        before: 2,
        after: 10,
        rows,
        headerRows: rows.slice(0, Math.min(block.headerRows, rows.length - 1)),
      };
    }
    case 'note': {
      const width = contentWidth - NOTE_INDENT;
      const rows = [
        ...textRows(block.label, 'noteLabel', NOTE_INDENT, width),
        ...textRows(block.text, 'note', NOTE_INDENT, width),
      ];
      return {
        ...base,
        kind: 'paragraph',
        before: LINE_STYLES.noteLabel.before,
        after: LINE_STYLES.note.after,
        rows,
        keepWithNext: false,
      };
    }
    case 'image':
      return {
        ...base,
        kind: 'paragraph',
        before: LINE_STYLES.image.before,
        after: LINE_STYLES.image.after,
        rows: textRows(`Image: ${block.alt}`, 'image', 0, contentWidth),
      };
    case 'pageBreak':
      return { ...base, kind: 'pageBreak', before: 0, after: 0, rows: [] };
  }
}

function headingStyle(level: number): PageLineStyle {
  if (level <= 1) return 'h1';
  if (level === 2) return 'h2';
  if (level === 3) return 'h3';
  return 'h4';
}

/** One row per wrapped line. */
function textRows(text: string, style: PageLineStyle, x: number, width: number): Row[] {
  const metrics = LINE_STYLES[style];
  return wrapText(text, width, metrics.size, metrics.bold).map((line) => ({
    height: metrics.lineHeight,
    lines: [{ style, text: line, x, dy: 0, width, height: metrics.lineHeight }],
  }));
}

function naturalColumnWidths(rows: readonly string[][]): number[] {
  const columns = Math.max(0, ...rows.map((row) => row.length));
  const widths = Array.from({ length: columns }, () => MIN_COLUMN);
  for (const row of rows) {
    row.forEach((cell, column) => {
      const natural = textWidth(cell, LINE_STYLES.tableRow.size, true) + 2 * CELL_PADDING_X + 1;
      widths[column] = Math.max(widths[column]!, Math.min(MAX_NATURAL_COLUMN, natural));
    });
  }
  return widths;
}

/** Columns at their natural width when they fit, else shrunk in proportion (never below a minimum). */
function columnWidths(rows: readonly string[][], available: number): number[] {
  const natural = naturalColumnWidths(rows);
  const total = natural.reduce((sum, w) => sum + w, 0);
  if (total <= available) return natural;
  const scale = available / total;
  const scaled = natural.map((w) => Math.max(MIN_COLUMN, w * scale));
  const scaledTotal = scaled.reduce((sum, w) => sum + w, 0);
  // Past the minimum the table is wider than the page: the row is clipped on the right when drawn.
  return scaledTotal <= available ? scaled : scaled.map((w) => Math.max(8, (w * available) / scaledTotal));
}

function tableRows(rows: readonly string[][], headerRows: number, contentWidth: number): Row[] {
  const widths = columnWidths(rows, contentWidth);
  const tableWidth = widths.reduce((sum, w) => sum + w, 0);
  return rows.map((row, rowAt) => {
    const style: PageLineStyle = rowAt < headerRows ? 'tableHeader' : 'tableRow';
    const metrics = LINE_STYLES[style];
    let x = 0;
    const cells: PageTextCell[] = widths.map((width, column) => {
      const text = row[column] ?? '';
      const lines = text === '' ? [] : wrapText(text, width - 2 * CELL_PADDING_X, metrics.size, metrics.bold);
      const cell = { x, width, lines };
      x += width;
      return cell;
    });
    const lineCount = Math.max(1, ...cells.map((cell) => cell.lines.length));
    const height = lineCount * metrics.lineHeight + 2 * CELL_PADDING_Y;
    return {
      height,
      lines: [{ style, text: row.join('\t'), x: 0, dy: 0, width: tableWidth, height, cells }],
    };
  });
}
