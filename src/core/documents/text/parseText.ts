import { readFile } from 'node:fs/promises';
import { QuireError } from '../../../shared/errors';
import { chunkPages, DEFAULT_CHUNKING, type ChunkingOptions } from '../layout/chunker';
import type { BlockKind, LayoutBlock, PageLayout } from '../layout/model';
import { placePageText } from '../layout/pageText';
import type { DrawablePage } from '../render/laidOutRaster';
import type { ParsedDocument } from '../types';
import { nominalHeight, nominalLine, NOMINAL_WIDTH } from './nominalPage';

export interface ParseTextOptions {
  /** Lines per page for plain text, and for Markdown without headings or with very long sections. */
  linesPerPage?: number;
  chunking?: ChunkingOptions;
}

export const DEFAULT_LINES_PER_PAGE = 60;
// A Markdown section is one page unless it is longer than this many pages' worth of lines.
const MAX_SECTION_PAGES = 2;

/** Reads a `.md` or `.txt` file as UTF-8 (a BOM is dropped) and splits it into nominal pages. */
export async function parseTextFile(
  path: string,
  kind: 'markdown' | 'text',
  options: ParseTextOptions = {},
): Promise<ParsedDocument> {
  let source: string;
  try {
    source = await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new QuireError('not_found', `The file is gone: ${path}`);
    throw new QuireError('not_readable', `The file cannot be read: ${path} (${code ?? String(error)})`);
  }
  return kind === 'markdown' ? parseMarkdown(source, options) : parsePlainText(source, options);
}

function toLines(source: string): string[] {
  return source
    .replace(/^\uFEFF/, '')
    .replace(/\r\n?/g, '\n')
    .replace(/\t/g, '    ')
    .split('\n');
}

export function parsePlainText(source: string, options: ParseTextOptions = {}): ParsedDocument {
  return buildDocument('text', null, plainTextLayouts(source, options), options);
}

export function parseMarkdown(source: string, options: ParseTextOptions = {}): ParsedDocument {
  const { title, layouts } = markdownLayouts(source, options);
  return buildDocument('markdown', title, layouts, options);
}

/** The pages of a text or Markdown file as laid out, as drawable lines on a monospace grid. */
export async function textFilePages(path: string, kind: 'markdown' | 'text'): Promise<DrawablePage[]> {
  const source = await readFile(path, 'utf8');
  const layouts = kind === 'markdown' ? markdownLayouts(source).layouts : plainTextLayouts(source);
  return layouts.map((layout) => ({
    width: layout.width,
    height: layout.height,
    lines: layout.blocks.flatMap((block) =>
      block.lines.map((line) => ({
        style: block.kind === 'heading' ? ('h4' as const) : ('body' as const),
        text: line.text,
        box: line.box,
      })),
    ),
  }));
}

function plainTextLayouts(source: string, options: ParseTextOptions = {}): PageLayout[] {
  const linesPerPage = options.linesPerPage ?? DEFAULT_LINES_PER_PAGE;
  const lines = toLines(source);
  const pages: string[][] = [];
  for (let i = 0; i < lines.length; i += linesPerPage) pages.push(lines.slice(i, i + linesPerPage));
  return toLayouts(pages.map((pageLines) => paragraphBlocks(pageLines)));
}

function markdownLayouts(
  source: string,
  options: ParseTextOptions = {},
): { title: string | null; layouts: PageLayout[] } {
  const linesPerPage = options.linesPerPage ?? DEFAULT_LINES_PER_PAGE;
  const lines = toLines(source);
  const headingLevel = (line: string) => /^(#{1,6})\s+\S/.exec(line)?.[1]?.length ?? 0;
  const fenced = fencedLines(lines);
  const levels = lines.map((line, i) => (fenced[i] ? 0 : headingLevel(line)));
  const topLevel = Math.min(...levels.filter((level) => level > 0), 7);

  // One page per top-level section; text before the first heading is a page of its own.
  const sections: string[][] = [];
  lines.forEach((line, i) => {
    if (levels[i] === topLevel || sections.length === 0) sections.push([]);
    sections[sections.length - 1]!.push(line);
  });
  const pages: string[][] = [];
  for (const section of sections) {
    if (section.every((line) => line.trim() === '')) continue;
    if (section.length <= linesPerPage * MAX_SECTION_PAGES && topLevel <= 6) pages.push(section);
    else
      for (let i = 0; i < section.length; i += linesPerPage) pages.push(section.slice(i, i + linesPerPage));
  }
  const title =
    lines
      .find((_, i) => levels[i] === topLevel)
      ?.replace(/^#+\s+/, '')
      .trim() ?? null;
  return { title, layouts: toLayouts(pages.map((pageLines) => markdownBlocks(pageLines))) };
}

/** Marks the lines inside ``` or ~~~ fences, where a `#` is code, not a heading. */
function fencedLines(lines: readonly string[]): boolean[] {
  let open = false;
  return lines.map((line) => {
    if (/^\s*(```|~~~)/.test(line)) {
      open = !open;
      return true;
    }
    return open;
  });
}

interface RowBlock {
  kind: BlockKind;
  rows: Array<{ text: string; row: number }>;
}

function paragraphBlocks(lines: readonly string[]): RowBlock[] {
  const blocks: RowBlock[] = [];
  let current: RowBlock | undefined;
  lines.forEach((line, row) => {
    if (line.trim() === '') {
      current = undefined;
      return;
    }
    if (!current) blocks.push((current = { kind: 'paragraph', rows: [] }));
    current.rows.push({ text: line.trimEnd(), row });
  });
  return blocks;
}

function markdownBlocks(lines: readonly string[]): RowBlock[] {
  const fenced = fencedLines(lines);
  const blocks: RowBlock[] = [];
  let current: RowBlock | undefined;
  lines.forEach((line, row) => {
    const text = line.trimEnd();
    let kind: BlockKind = 'paragraph';
    if (!fenced[row]) {
      if (/^#{1,6}\s+\S/.test(text)) kind = 'heading';
      else if (/^\s*\|.*\|\s*$/.test(text)) kind = 'table';
      else if (/^\s*(?:[-*+]|\d{1,3}[.)])\s+\S/.test(text)) kind = 'list';
    }
    if (text.trim() === '' && !fenced[row]) {
      current = undefined;
      return;
    }
    const startsNew =
      !current ||
      kind === 'heading' ||
      current.kind === 'heading' ||
      kind === 'list' ||
      (current.kind !== kind && !(current.kind === 'list' && /^\s+\S/.test(text)));
    if (startsNew) blocks.push((current = { kind, rows: [] }));
    current!.rows.push({ text, row });
  });
  return blocks;
}

function toLayouts(pageBlocks: RowBlock[][]): PageLayout[] {
  return pageBlocks.map((blocks, i) => {
    const rows = Math.max(0, ...blocks.flatMap((block) => block.rows.map((r) => r.row + 1)));
    const layoutBlocks: LayoutBlock[] = blocks.map((block) => ({
      kind: block.kind,
      lines: block.rows.map(({ text, row }) =>
        nominalLine(block.kind === 'heading' ? text.replace(/^#+\s+/, '') : text, row),
      ),
    }));
    return { page: i + 1, width: NOMINAL_WIDTH, height: nominalHeight(rows), blocks: layoutBlocks };
  });
}

function buildDocument(
  kind: 'markdown' | 'text',
  title: string | null,
  layouts: PageLayout[],
  options: ParseTextOptions,
): ParsedDocument {
  const placed = layouts.map(placePageText);
  return {
    kind,
    title,
    pages: placed.map(({ page, width, height, text }) => ({
      page,
      width,
      height,
      text,
      needsOcr: false,
      textSource: { method: 'layer' as const },
    })),
    chunks: chunkPages(placed, options.chunking ?? DEFAULT_CHUNKING),
  };
}
