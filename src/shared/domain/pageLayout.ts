/*
 * The nominal page's type metrics, one set for the engine that lays pages out and the window that
 * draws them as text. Without schemas, so the window can draw before it loads the contract's.
 */
import type { PageLineStyle } from './pages';

export interface LineStyleMetrics {
  /** Font size in points. */
  size: number;
  lineHeight: number;
  bold: boolean;
  italic: boolean;
  /** Space kept above and below the block, in points. */
  before: number;
  after: number;
}

export const LINE_STYLES: Record<PageLineStyle, LineStyleMetrics> = {
  label: { size: 9, lineHeight: 13, bold: false, italic: false, before: 0, after: 10 },
  h1: { size: 18, lineHeight: 23, bold: true, italic: false, before: 10, after: 6 },
  h2: { size: 15, lineHeight: 20, bold: true, italic: false, before: 9, after: 5 },
  h3: { size: 13, lineHeight: 17, bold: true, italic: false, before: 8, after: 4 },
  h4: { size: 11, lineHeight: 15, bold: true, italic: false, before: 6, after: 3 },
  body: { size: 10, lineHeight: 14, bold: false, italic: false, before: 0, after: 7 },
  listItem: { size: 10, lineHeight: 14, bold: false, italic: false, before: 0, after: 2 },
  tableHeader: { size: 9, lineHeight: 12, bold: true, italic: false, before: 0, after: 0 },
  tableRow: { size: 9, lineHeight: 12, bold: false, italic: false, before: 0, after: 0 },
  noteLabel: { size: 9, lineHeight: 12, bold: true, italic: false, before: 6, after: 1 },
  note: { size: 9, lineHeight: 12, bold: false, italic: false, before: 0, after: 6 },
  image: { size: 9, lineHeight: 12, bold: false, italic: true, before: 2, after: 8 },
};

/** Horizontal padding inside a table cell, and vertical padding of a row, in points. */
export const CELL_PADDING_X = 3;
export const CELL_PADDING_Y = 2;
