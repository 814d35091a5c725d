import type { Block, Unit } from '../../structure/model';

/*
 * A sheet's cells as pages: blank rows split it into tables (a sheet often holds a title, a table and
 * notes), a table whose first row is all text takes it as its header, and a sheet longer than a page
 * is split by row ranges, each repeating its table's header. Shared by Excel and OpenDocument sheets.
 */

export interface SheetCell {
  /** 1-based. */
  row: number;
  column: number;
  text: string;
}

export interface SheetComment {
  /** Where the comment sits, e.g. `B3`. */
  address: string;
  text: string;
}

/** Rows of one page of a sheet. */
export const ROWS_PER_PAGE = 50;

interface Region {
  firstRow: number;
  rows: string[][];
}

export function sheetUnits(
  name: string,
  cells: readonly SheetCell[],
  comments: readonly SheetComment[],
  charts: readonly Block[] = [],
): Unit[] {
  const regions = splitRegions(cells);
  const units: Unit[] = [];
  let blocks: Block[] = [];
  let rowsOnPage = 0;
  let pageFirstRow: number | null = null;
  let pageLastRow = 0;
  const closePage = () => {
    if (blocks.length === 0) return;
    const rows = pageLastRow >= (pageFirstRow ?? 1) ? `, rows ${pageFirstRow}–${pageLastRow}` : '';
    units.push({ label: `Sheet ${name}${rows}`, blocks, pages: 'fixed' });
    blocks = [];
    rowsOnPage = 0;
    pageFirstRow = null;
  };
  for (const region of regions) {
    const header = hasHeader(region.rows) ? 1 : 0;
    const nonEmpty = region.rows.map((row) => row.filter((cell) => cell !== ''));
    // A lone line of text (a sheet's title, a note under a table) is a paragraph, not a one-cell table.
    if (region.rows.length === 1 && nonEmpty[0]!.length <= 1) {
      if (rowsOnPage >= ROWS_PER_PAGE) closePage();
      pageFirstRow ??= region.firstRow;
      blocks.push({ kind: 'paragraph', text: nonEmpty[0]![0] ?? '' });
      rowsOnPage++;
      pageLastRow = region.firstRow;
      continue;
    }
    let at = 0;
    while (at < region.rows.length) {
      if (rowsOnPage >= ROWS_PER_PAGE) closePage();
      const room = Math.max(1, ROWS_PER_PAGE - rowsOnPage);
      const start = at === 0 ? 0 : at;
      const take = region.rows.slice(start, start + room);
      const repeated = at > 0 && header ? region.rows.slice(0, header) : [];
      pageFirstRow ??= region.firstRow + start;
      blocks.push({
        kind: 'table',
        rows: [...repeated, ...take],
        headerRows: at === 0 ? header : repeated.length,
      });
      rowsOnPage += take.length;
      pageLastRow = region.firstRow + start + take.length - 1;
      at = start + take.length;
    }
  }
  for (const comment of comments) {
    blocks.push({ kind: 'note', label: `Comment on ${comment.address}`, text: comment.text });
  }
  blocks.push(...charts);
  pageFirstRow ??= 1;
  closePage();
  if (units.length === 0) units.push({ label: `Sheet ${name} (empty)`, blocks: [], pages: 'fixed' });
  else if (units.length === 1) units[0]!.label = `Sheet ${name}`;
  return units;
}

/** Runs of rows with no blank row between them, trimmed to the columns they use. */
function splitRegions(cells: readonly SheetCell[]): Region[] {
  const byRow = new Map<number, SheetCell[]>();
  for (const cell of cells) {
    const row = byRow.get(cell.row);
    if (row) row.push(cell);
    else byRow.set(cell.row, [cell]);
  }
  const rowNumbers = [...byRow.keys()].sort((a, b) => a - b);
  const groups: number[][] = [];
  for (const row of rowNumbers) {
    const last = groups[groups.length - 1];
    if (last && row === last[last.length - 1]! + 1) last.push(row);
    else groups.push([row]);
  }
  return groups.map((rows) => {
    const regionCells = rows.flatMap((row) => byRow.get(row)!);
    const first = Math.min(...regionCells.map((cell) => cell.column));
    const last = Math.max(...regionCells.map((cell) => cell.column));
    return {
      firstRow: rows[0]!,
      rows: rows.map((row) => {
        const values = Array.from({ length: last - first + 1 }, () => '');
        for (const cell of byRow.get(row)!) values[cell.column - first] = cell.text;
        return values;
      }),
    };
  });
}

/** A first row of labels (no numbers, at least two cells) over at least one more row. */
function hasHeader(rows: readonly string[][]): boolean {
  const first = rows[0];
  if (!first || rows.length < 2) return false;
  const filled = first.filter((cell) => cell !== '');
  return filled.length >= 2 && filled.every((cell) => !/^[-+]?[\d.,]+%?$/.test(cell));
}
