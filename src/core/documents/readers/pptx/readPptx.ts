import { QuireError } from '../../../../shared/errors';
import {
  cleanText,
  type Block,
  type ListItem,
  type StructuredDocument,
  type Unit,
} from '../../structure/model';
import { coreTitle } from '../zip/coreProperties';
import {
  child,
  childrenNamed,
  descendant,
  descendants,
  parseXml,
  relationships,
  textIn,
  type XmlNode,
} from '../zip/xmlTree';
import { readZip, type ZipEntries } from '../zip/zipArchive';
import { chartBlocks } from './chartText';
import { slideComments } from './slideComments';

/**
 * A PowerPoint deck (.pptx): one page per slide, in the deck's order, with its title as a heading,
 * text boxes and placeholders in the order they appear, bullet levels as lists, tables with their
 * first row as header, chart titles and series, alt text of pictures, speaker notes and comments.
 * A shape or part that cannot be read is skipped, never the slide.
 */
export async function readPptx(
  path: string,
  options: { signal?: AbortSignal } = {},
): Promise<StructuredDocument> {
  const zip = await readZip(path, {
    formatName: 'PowerPoint presentation',
    keep: (name) => name.endsWith('.xml') || name.endsWith('.rels'),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const presentation = parseXml(zip.text('ppt/presentation.xml'));
  if (!presentation) {
    throw new QuireError(
      'unsupported',
      'This PowerPoint presentation is damaged: it has no readable slide list.',
    );
  }
  const rels = relationships(zip, 'ppt/presentation.xml');
  const slidePaths = childrenNamed(child(presentation, 'sldIdLst'), 'sldId')
    .map((slideId) => rels.get(slideId.attributes.id ?? '')?.target)
    .filter((target): target is string => target !== undefined);
  const units = slidePaths.map((slidePath, at) => readSlide(zip, slidePath, at + 1));
  return { title: coreTitle(zip.text('docProps/core.xml')) ?? firstTitle(units), units };
}

function firstTitle(units: readonly Unit[]): string | null {
  for (const unit of units) {
    const heading = unit.blocks.find((block) => block.kind === 'heading');
    if (heading?.kind === 'heading') return heading.text;
  }
  return null;
}

function readSlide(zip: ZipEntries, slidePath: string, number: number): Unit {
  const slide = parseXml(zip.text(slidePath));
  const hidden = slide?.attributes.show === '0';
  const label = `Slide ${number}${hidden ? ' (hidden)' : ''}`;
  const rels = relationships(zip, slidePath);
  const blocks: Block[] = [];
  const tree = child(child(slide, 'cSld'), 'spTree');
  if (tree) readShapes(tree, { zip, rels, blocks });
  // Titles first: a slide is known by its title, wherever the shape sits in the tree.
  blocks.sort((a, b) => Number(b.kind === 'heading') - Number(a.kind === 'heading'));
  for (const rel of rels.values()) {
    if (rel.type.endsWith('/notesSlide')) {
      const notes = notesText(parseXml(zip.text(rel.target)));
      if (notes !== '') blocks.push({ kind: 'note', label: 'Speaker notes', text: notes });
    }
  }
  blocks.push(...slideComments(zip, rels));
  return { label, blocks, pages: 'fixed' };
}

interface ShapeContext {
  zip: ZipEntries;
  rels: Map<string, { type: string; target: string; external: boolean }>;
  blocks: Block[];
}

function readShapes(tree: XmlNode, context: ShapeContext): void {
  for (const shape of tree.children) {
    try {
      readShape(shape, context);
    } catch {
      // An unrecognised or broken shape costs itself, not the slide.
    }
  }
}

function readShape(shape: XmlNode, context: ShapeContext): void {
  switch (shape.tag) {
    case 'sp':
      readTextShape(shape, context.blocks);
      return;
    case 'grpSp':
      readShapes(shape, context);
      return;
    case 'graphicFrame': {
      const table = descendant(shape, 'tbl');
      if (table) {
        context.blocks.push(...tableBlock(table));
        return;
      }
      const chart = descendant(shape, 'chart');
      const target = chart ? context.rels.get(chart.attributes.id ?? '')?.target : undefined;
      if (target) context.blocks.push(...chartBlocks(parseXml(context.zip.text(target))));
      return;
    }
    case 'pic': {
      const alt = altText(child(child(shape, 'nvPicPr'), 'cNvPr'));
      if (alt) context.blocks.push({ kind: 'image', alt });
      return;
    }
    case 'AlternateContent': {
      // The first choice an Office reader would take; the fallback when there is none.
      const choice = child(shape, 'Choice') ?? child(shape, 'Fallback');
      if (choice) readShapes(choice, context);
      return;
    }
    default:
      return;
  }
}

function altText(properties: XmlNode | undefined): string {
  return cleanText(properties?.attributes.descr ?? properties?.attributes.title ?? '');
}

function readTextShape(shape: XmlNode, blocks: Block[]): void {
  const placeholder = descendant(child(shape, 'nvSpPr'), 'ph');
  const type = placeholder?.attributes.type ?? (placeholder ? 'body' : null);
  const body = child(shape, 'txBody');
  const paragraphs = childrenNamed(body, 'p')
    .map((paragraph) => ({ paragraph, text: paragraphText(paragraph) }))
    .filter(({ text }) => text !== '');
  if (paragraphs.length === 0) {
    const alt = altText(child(child(shape, 'nvSpPr'), 'cNvPr'));
    if (alt) blocks.push({ kind: 'image', alt });
    return;
  }
  if (type === 'title' || type === 'ctrTitle') {
    blocks.push({ kind: 'heading', level: 1, text: paragraphs.map((p) => p.text).join(' ') });
    return;
  }
  if (type === 'subTitle') {
    blocks.push({ kind: 'heading', level: 2, text: paragraphs.map((p) => p.text).join(' ') });
    return;
  }
  // Body placeholders are bulleted unless a paragraph says otherwise; text boxes only when they say so.
  let items: ListItem[] = [];
  const flushList = () => {
    if (items.length > 0) blocks.push({ kind: 'list', items });
    items = [];
  };
  for (const { paragraph, text } of paragraphs) {
    const properties = child(paragraph, 'pPr');
    const numbered = child(properties, 'buAutoNum') !== undefined;
    const bulleted =
      numbered || child(properties, 'buChar') !== undefined || child(properties, 'buBlip') !== undefined;
    const unbulleted = child(properties, 'buNone') !== undefined;
    const inList = (type === 'body' && !unbulleted) || bulleted;
    if (!inList) {
      flushList();
      blocks.push({ kind: 'paragraph', text });
      continue;
    }
    const level = Number.parseInt(properties?.attributes.lvl ?? '0', 10);
    items.push({ text, depth: Number.isFinite(level) ? Math.min(level, 8) : 0, ordered: numbered });
  }
  flushList();
}

function paragraphText(paragraph: XmlNode): string {
  let text = '';
  for (const part of paragraph.children) {
    if (part.tag === 'r' || part.tag === 'fld') text += textIn(child(part, 't'));
    else if (part.tag === 'br') text += ' ';
  }
  return cleanText(text);
}

function tableBlock(table: XmlNode): Block[] {
  const rows = childrenNamed(table, 'tr').map((row) =>
    childrenNamed(row, 'tc').map((cell) =>
      cleanText(childrenNamed(child(cell, 'txBody'), 'p').map(paragraphText).join(' ')),
    ),
  );
  if (!rows.some((row) => row.some((cell) => cell !== ''))) return [];
  const firstRowHeader = child(table, 'tblPr')?.attributes.firstRow === '1';
  return [{ kind: 'table', rows, headerRows: firstRowHeader && rows.length > 1 ? 1 : 0 }];
}

function notesText(notes: XmlNode | null): string {
  const texts: string[] = [];
  for (const shape of descendants(child(notes, 'cSld'), 'sp')) {
    const type = descendant(child(shape, 'nvSpPr'), 'ph')?.attributes.type;
    // The notes page also holds the slide image and a slide-number field: only the body is notes.
    if (type !== 'body') continue;
    texts.push(childrenNamed(child(shape, 'txBody'), 'p').map(paragraphText).join(' '));
  }
  return cleanText(texts.join(' '));
}
