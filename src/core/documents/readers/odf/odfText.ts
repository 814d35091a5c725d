import { cleanText, type Block, type ListItem } from '../../structure/model';
import { child, childrenNamed, type XmlNode } from '../zip/xmlTree';

/*
 * OpenDocument text content (the body of .odt files, and the text boxes and tables of .odp and .ods)
 * as blocks: headings by outline level, lists by nesting, tables with spans and header rows, pictures
 * by their title or description, comments and footnotes as notes, page breaks where the file has them.
 */

export interface OdfContext {
  /** Paragraph styles that start on a new page (`fo:break-before="page"`). */
  breakBefore: ReadonlySet<string>;
}

/** The text of a paragraph-like element; notes and comments inside it go to `notes`. */
export function inlineText(node: XmlNode, notes?: Block[]): string {
  let text = node.ownText;
  for (const part of node.children) {
    switch (part.tag) {
      case 's':
        text += ' '.repeat(Math.min(Number.parseInt(part.attributes.c ?? '1', 10) || 1, 16));
        break;
      case 'tab':
      case 'line-break':
        text += ' ';
        break;
      case 'annotation': {
        const author = cleanText(
          childrenNamed(part, 'creator')
            .map((c) => inlineText(c))
            .join(' '),
        );
        const body = cleanText(
          childrenNamed(part, 'p')
            .map((p) => inlineText(p))
            .join(' '),
        );
        if (body)
          notes?.push({ kind: 'note', label: author ? `Comment by ${author}` : 'Comment', text: body });
        break;
      }
      case 'note': {
        const citation = cleanText(inlineText(child(part, 'note-citation') ?? part));
        const body = cleanText(blocksText(child(part, 'note-body')));
        if (body) notes?.push({ kind: 'note', label: `Note ${citation}`, text: body });
        text += citation;
        break;
      }
      case 'annotation-end':
      case 'bookmark':
      case 'bookmark-start':
      case 'bookmark-end':
      case 'soft-page-break':
        break;
      case 'frame':
        break;
      default:
        text += inlineText(part, notes);
    }
  }
  return text;
}

function blocksText(node: XmlNode | undefined): string {
  if (!node) return '';
  return node.children
    .map((part) => (part.tag === 'p' || part.tag === 'h' ? inlineText(part) : blocksText(part)))
    .join(' ');
}

/** Blocks of a container of text content (`office:text`, a text box, a table cell, a section). */
export function odfBlocks(container: XmlNode | undefined, context: OdfContext): Block[] {
  const blocks: Block[] = [];
  if (!container) return blocks;
  for (const node of container.children) {
    switch (node.tag) {
      case 'h': {
        const notes: Block[] = [];
        const text = cleanText(inlineText(node, notes));
        const level = Number.parseInt(node.attributes['outline-level'] ?? '1', 10) || 1;
        if (context.breakBefore.has(node.attributes['style-name'] ?? '')) blocks.push({ kind: 'pageBreak' });
        if (text) blocks.push({ kind: 'heading', level, text });
        blocks.push(...notes, ...frames(node));
        break;
      }
      case 'p': {
        const notes: Block[] = [];
        const text = cleanText(inlineText(node, notes));
        if (context.breakBefore.has(node.attributes['style-name'] ?? '')) blocks.push({ kind: 'pageBreak' });
        if (hasPageBreak(node)) blocks.push({ kind: 'pageBreak' });
        if (text) blocks.push({ kind: 'paragraph', text });
        blocks.push(...notes, ...frames(node));
        break;
      }
      case 'list': {
        const items: ListItem[] = [];
        const notes: Block[] = [];
        collectList(node, 0, items, notes);
        if (items.length > 0) blocks.push({ kind: 'list', items });
        blocks.push(...notes);
        break;
      }
      case 'table':
        blocks.push(...odfTable(node));
        break;
      case 'soft-page-break':
        blocks.push({ kind: 'pageBreak' });
        break;
      case 'section':
      case 'index-body':
      case 'table-of-content':
      case 'alphabetical-index':
      case 'illustration-index':
      case 'bibliography':
        blocks.push(
          ...odfBlocks(
            node.tag === 'section' || node.tag === 'index-body' ? node : child(node, 'index-body'),
            context,
          ),
        );
        break;
      case 'frame':
        blocks.push(...frameBlocks(node, context));
        break;
      default:
        break;
    }
  }
  return blocks;
}

function hasPageBreak(node: XmlNode): boolean {
  return node.children.some((part) => part.tag === 'soft-page-break');
}

/** Pictures and text boxes anchored inside a paragraph. */
function frames(node: XmlNode): Block[] {
  const blocks: Block[] = [];
  const walk = (current: XmlNode) => {
    for (const part of current.children) {
      if (part.tag === 'frame') blocks.push(...frameBlocks(part, { breakBefore: new Set() }));
      else if (part.tag === 'span' || part.tag === 'a') walk(part);
    }
  };
  walk(node);
  return blocks;
}

/** A frame: a picture (known by its title or description), a text box, or an embedded table. */
export function frameBlocks(frame: XmlNode, context: OdfContext): Block[] {
  const textBox = child(frame, 'text-box');
  if (textBox) return odfBlocks(textBox, context);
  const table = child(frame, 'table');
  if (table) return odfTable(table);
  const alt = cleanText(
    inlineText(
      child(frame, 'title') ?? child(frame, 'desc') ?? { tag: '', attributes: {}, children: [], ownText: '' },
    ),
  );
  return alt ? [{ kind: 'image', alt }] : [];
}

function collectList(list: XmlNode, depth: number, items: ListItem[], notes: Block[]): void {
  for (const item of [...childrenNamed(list, 'list-item'), ...childrenNamed(list, 'list-header')]) {
    const texts: string[] = [];
    for (const part of item.children) {
      if (part.tag === 'p' || part.tag === 'h') texts.push(inlineText(part, notes));
      else if (part.tag === 'list') {
        const text = cleanText(texts.splice(0).join(' '));
        if (text) items.push({ text, depth, ordered: false });
        collectList(part, depth + 1, items, notes);
      }
    }
    const text = cleanText(texts.join(' '));
    if (text) items.push({ text, depth, ordered: false });
  }
}

// Repeated rows and columns are how OpenDocument stores a sheet's empty expanse: never expanded blindly.
const MAX_REPEAT = 256;

/** An OpenDocument table (in text, on a slide, or a spreadsheet's sheet) as rows of cell text. */
export function odfTableRows(table: XmlNode): { rows: string[][]; headerRows: number } {
  // null: a slot covered by a cell merged from the row above; filled with that cell's text below.
  const rows: Array<Array<string | null>> = [];
  let headerRows = 0;
  const readRow = (row: XmlNode, header: boolean) => {
    const cells: Array<string | null> = [];
    let spanText = '';
    let spanLeft = 0;
    for (const cell of row.children) {
      const columns = Number.parseInt(cell.attributes['number-columns-repeated'] ?? '1', 10) || 1;
      if (cell.tag === 'covered-table-cell') {
        for (let r = 0; r < Math.min(columns, MAX_REPEAT); r++) {
          cells.push(spanLeft > 0 ? spanText : null);
          if (spanLeft > 0) spanLeft--;
        }
        continue;
      }
      if (cell.tag !== 'table-cell') continue;
      const text = cleanText(
        cell.children
          .map((part) => (part.tag === 'p' || part.tag === 'h' ? inlineText(part) : blocksText(part)))
          .join(' '),
      );
      for (let r = 0; r < Math.min(columns, text ? MAX_REPEAT : 1); r++) cells.push(text);
      spanText = text;
      spanLeft = (Number.parseInt(cell.attributes['number-columns-spanned'] ?? '1', 10) || 1) - 1;
    }
    while (cells.length > 0 && (cells[cells.length - 1] === '' || cells[cells.length - 1] === null))
      cells.pop();
    const rowsRepeated = Number.parseInt(row.attributes['number-rows-repeated'] ?? '1', 10) || 1;
    const repeat = Math.min(rowsRepeated, cells.length > 0 ? MAX_REPEAT : 1);
    for (let r = 0; r < repeat; r++) rows.push([...cells]);
    if (header) headerRows += repeat;
  };
  const walk = (node: XmlNode, header: boolean) => {
    for (const part of node.children) {
      if (part.tag === 'table-row') readRow(part, header);
      else if (part.tag === 'table-header-rows') walk(part, true);
      else if (part.tag === 'table-rows' || part.tag === 'table-row-group') walk(part, header);
    }
  };
  walk(table, false);
  const filled: string[][] = [];
  for (const row of rows) {
    const above = filled[filled.length - 1];
    filled.push(row.map((cell, column) => cell ?? above?.[column] ?? ''));
  }
  while (filled.length > 0 && filled[filled.length - 1]!.length === 0) filled.pop();
  return { rows: filled, headerRows };
}

function odfTable(table: XmlNode): Block[] {
  const { rows, headerRows } = odfTableRows(table);
  const width = Math.max(0, ...rows.map((row) => row.length));
  if (width === 0) return [];
  const filled = rows.map((row) => Array.from({ length: width }, (_, c) => row[c] ?? ''));
  const firstRowStyled = table.attributes['use-first-row-styles'] === 'true';
  const header = headerRows > 0 ? headerRows : firstRowStyled && filled.length > 1 ? 1 : 0;
  return [{ kind: 'table', rows: filled, headerRows: Math.min(header, filled.length - 1) }];
}
