import { cleanText, type Block, type ListItem } from '../../structure/model';

/*
 * HTML (a web page, a Word document as mammoth writes it, an EPUB chapter) to blocks, over a DOM
 * from linkedom. Headings, lists with their nesting, tables with merged cells and header rows, alt
 * text, notes marked `<aside data-note-label>` and page breaks marked `<hr class="page-break">`.
 */

// Minimal DOM shapes: linkedom's types follow the browser's, which this node-only code does not load.
export interface HtmlNode {
  nodeType: number;
  textContent: string | null;
  childNodes: ArrayLike<HtmlNode>;
}
export interface HtmlElement extends HtmlNode {
  localName: string;
  getAttribute(name: string): string | null;
  hasAttribute(name: string): boolean;
  children: ArrayLike<HtmlElement>;
}

const TEXT_NODE = 3;
const ELEMENT_NODE = 1;

const SKIPPED = new Set([
  'script',
  'style',
  'noscript',
  'template',
  'svg',
  'math',
  'head',
  'iframe',
  'object',
  'embed',
  'canvas',
  'video',
  'audio',
  'select',
  'input',
  'button',
  'textarea',
  'link',
  'meta',
]);
const BLOCK_TAGS = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'body',
  'caption',
  'center',
  'dd',
  'details',
  'dialog',
  'div',
  'dl',
  'dt',
  'fieldset',
  'figcaption',
  'figure',
  'footer',
  'form',
  'header',
  'hgroup',
  'html',
  'li',
  'main',
  'nav',
  'p',
  'pre',
  'section',
  'summary',
  'tbody',
  'td',
  'tfoot',
  'th',
  'thead',
  'tr',
]);

const isElement = (node: HtmlNode): node is HtmlElement => node.nodeType === ELEMENT_NODE;

/** Blocks of `root` in reading order. */
export function htmlToBlocks(root: HtmlElement): Block[] {
  const blocks: Block[] = [];
  let inline = '';
  const flush = () => {
    const text = cleanText(inline);
    if (text !== '') blocks.push({ kind: 'paragraph', text });
    inline = '';
  };
  const visit = (node: HtmlNode) => {
    if (node.nodeType === TEXT_NODE) {
      inline += node.textContent ?? '';
      return;
    }
    if (!isElement(node)) return;
    const tag = node.localName.toLowerCase();
    if (SKIPPED.has(tag)) return;
    if (tag === 'br') {
      inline += '\n';
      return;
    }
    if (tag === 'img' || tag === 'image') {
      const alt = cleanText(node.getAttribute('alt') ?? node.getAttribute('title') ?? '');
      if (alt !== '') {
        flush();
        blocks.push({ kind: 'image', alt });
      }
      return;
    }
    const heading = /^h([1-6])$/.exec(tag);
    if (heading) {
      flush();
      const text = textOf(node);
      if (text !== '') blocks.push({ kind: 'heading', level: Number(heading[1]), text });
      return;
    }
    if (tag === 'ul' || tag === 'ol') {
      flush();
      const items: ListItem[] = [];
      collectList(node, 0, items);
      if (items.length > 0) blocks.push({ kind: 'list', items });
      return;
    }
    if (tag === 'table') {
      flush();
      blocks.push(...tableBlocks(node));
      return;
    }
    if (tag === 'hr') {
      flush();
      if ((node.getAttribute('class') ?? '').split(/\s+/).includes('page-break'))
        blocks.push({ kind: 'pageBreak' });
      return;
    }
    if (tag === 'aside' && node.hasAttribute('data-note-label')) {
      flush();
      const text = textOf(node);
      if (text !== '') blocks.push({ kind: 'note', label: node.getAttribute('data-note-label') ?? '', text });
      return;
    }
    const isBlock = BLOCK_TAGS.has(tag);
    if (isBlock) flush();
    for (const child of Array.from(node.childNodes)) visit(child);
    if (isBlock) flush();
  };
  visit(root);
  flush();
  return blocks;
}

/** The text a reader sees in an element: scripts and styles left out, alt text of pictures kept. */
export function textOf(node: HtmlNode, skip?: (element: HtmlElement) => boolean): string {
  let text = '';
  const walk = (current: HtmlNode) => {
    if (current.nodeType === TEXT_NODE) {
      text += current.textContent ?? '';
      return;
    }
    if (!isElement(current)) return;
    const tag = current.localName.toLowerCase();
    if (SKIPPED.has(tag) || skip?.(current)) return;
    if (tag === 'img') {
      const alt = current.getAttribute('alt');
      if (alt) text += ` ${alt} `;
      return;
    }
    const spaced = tag === 'br' || BLOCK_TAGS.has(tag);
    if (spaced) text += ' ';
    for (const child of Array.from(current.childNodes)) walk(child);
    if (spaced) text += ' ';
  };
  walk(node);
  return cleanText(text);
}

function collectList(list: HtmlElement, depth: number, items: ListItem[]): void {
  const ordered = list.localName.toLowerCase() === 'ol';
  for (const child of Array.from(list.children)) {
    const tag = child.localName.toLowerCase();
    if (tag === 'ul' || tag === 'ol') {
      collectList(child, depth + 1, items);
      continue;
    }
    if (tag !== 'li') continue;
    const nested = (element: HtmlElement) => ['ul', 'ol'].includes(element.localName.toLowerCase());
    const text = textOf(child, nested);
    if (text !== '') items.push({ text, depth, ordered });
    for (const inner of Array.from(child.children)) {
      if (nested(inner)) collectList(inner, depth + 1, items);
    }
  }
}

/** A table's caption (as a paragraph) and its grid; merged cells repeat their text in every slot. */
function tableBlocks(table: HtmlElement): Block[] {
  const blocks: Block[] = [];
  const rows: HtmlElement[] = [];
  const findRows = (element: HtmlElement) => {
    for (const child of Array.from(element.children)) {
      const tag = child.localName.toLowerCase();
      if (tag === 'caption') {
        const caption = textOf(child);
        if (caption !== '') blocks.push({ kind: 'paragraph', text: caption });
      } else if (tag === 'tr') rows.push(child);
      else if (tag === 'thead' || tag === 'tbody' || tag === 'tfoot') findRows(child);
    }
  };
  findRows(table);
  const grid: string[][] = [];
  const headerFlags: boolean[] = [];
  rows.forEach((row, rowAt) => {
    grid[rowAt] ??= [];
    let column = 0;
    let allHeaders = true;
    let cells = 0;
    for (const cell of Array.from(row.children)) {
      const tag = cell.localName.toLowerCase();
      if (tag !== 'td' && tag !== 'th') continue;
      cells++;
      if (tag !== 'th') allHeaders = false;
      while (grid[rowAt]![column] !== undefined) column++;
      const text = textOf(cell);
      const colSpan = clampSpan(cell.getAttribute('colspan'));
      const rowSpan = clampSpan(cell.getAttribute('rowspan'));
      for (let r = 0; r < rowSpan; r++) {
        const target = (grid[rowAt + r] ??= []);
        for (let c = 0; c < colSpan; c++) target[column + c] = text;
      }
      column += colSpan;
    }
    const inHead = isInHead(row);
    headerFlags[rowAt] = cells > 0 && (allHeaders || inHead);
  });
  const width = Math.max(0, ...grid.map((row) => row.length));
  const filled = grid.map((row) => Array.from({ length: width }, (_, c) => row[c] ?? ''));
  let headerRows = 0;
  while (headerRows < filled.length - 1 && headerFlags[headerRows]) headerRows++;
  if (filled.some((row) => row.some((cell) => cell !== '')))
    blocks.push({ kind: 'table', rows: filled, headerRows });
  return blocks;
}

function isInHead(row: HtmlElement): boolean {
  const parent = (row as unknown as { parentNode: HtmlElement | null }).parentNode;
  return parent?.localName?.toLowerCase() === 'thead';
}

function clampSpan(value: string | null): number {
  const span = Number.parseInt(value ?? '1', 10);
  return Number.isFinite(span) && span > 0 ? Math.min(span, 64) : 1;
}
