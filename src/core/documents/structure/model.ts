/*
 * What every structured reader (Word, PowerPoint, Excel, OpenDocument, HTML, EPUB) produces: the
 * document's units (slides, sheets, chapters, sections) as blocks with their structure kept. Layout
 * (structure/paginate.ts) turns units into pages; nothing downstream knows which format they came from.
 */

export interface ListItem {
  text: string;
  /** Nesting depth, from 0. */
  depth: number;
  ordered: boolean;
}

export type Block =
  | { kind: 'heading'; level: number; text: string }
  | { kind: 'paragraph'; text: string }
  | { kind: 'list'; items: ListItem[] }
  /** Rows of cell texts; the first `headerRows` rows are headers, repeated when a table is split. */
  | { kind: 'table'; rows: string[][]; headerRows: number }
  /** Speaker notes, comments, footnotes: text that belongs to the unit but is not its body. */
  | { kind: 'note'; label: string; text: string }
  /** A picture, known by its alt text or caption. */
  | { kind: 'image'; alt: string }
  /** An explicit page break in the source (Word, OpenDocument). */
  | { kind: 'pageBreak' };

export interface Unit {
  /**
   * What the unit is called where the user would look for it ("Slide 3", "Sheet Sales, rows 1-60",
   * a chapter's title); shown at the top of its pages and indexed with their text.
   */
  label: string | null;
  blocks: Block[];
  /**
   * `fixed`: the unit is one page however long (a slide, a sheet's row range); `flow`: its blocks are
   * laid out on pages of about a printed page (a Word section, a chapter, a web page).
   */
  pages: 'fixed' | 'flow';
}

export interface StructuredDocument {
  title: string | null;
  units: Unit[];
}

/** Collapses runs of white space (including non-breaking spaces) to one space and trims. */
export function cleanText(text: string): string {
  return text.replace(/[\s\u00a0\u200b]+/g, ' ').trim();
}

/** Whether a block holds any text a reader would see. */
export function hasText(block: Block): boolean {
  switch (block.kind) {
    case 'heading':
    case 'paragraph':
      return block.text !== '';
    case 'list':
      return block.items.some((item) => item.text !== '');
    case 'table':
      return block.rows.some((row) => row.some((cell) => cell !== ''));
    case 'note':
      return block.text !== '';
    case 'image':
      return block.alt !== '';
    case 'pageBreak':
      return false;
  }
}
