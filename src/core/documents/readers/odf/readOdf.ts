import { QuireError } from '../../../../shared/errors';
import { cleanText, type Block, type StructuredDocument, type Unit } from '../../structure/model';
import { sheetUnits, type SheetCell } from '../xlsx/sheetUnits';
import { child, childrenNamed, descendants, parseXml, textIn, type XmlNode } from '../zip/xmlTree';
import { readZip } from '../zip/zipArchive';
import { frameBlocks, inlineText, odfBlocks, odfTableRows, type OdfContext } from './odfText';

export type OdfKind = 'odt' | 'odp' | 'ods';

const FORMAT_NAMES: Record<OdfKind, string> = {
  odt: 'OpenDocument text',
  odp: 'OpenDocument presentation',
  ods: 'OpenDocument spreadsheet',
};

/**
 * OpenDocument files (LibreOffice, Pages and Google exports): a text flows onto pages at its page
 * breaks, a presentation is one page per slide with its notes, a spreadsheet one page per sheet or
 * range of rows, as Excel workbooks are.
 */
export async function readOdf(
  path: string,
  kind: OdfKind,
  options: { signal?: AbortSignal } = {},
): Promise<StructuredDocument> {
  const formatName = FORMAT_NAMES[kind];
  const zip = await readZip(path, {
    formatName,
    keep: (name) => name === 'content.xml' || name === 'meta.xml' || name === 'styles.xml',
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const content = parseXml(zip.text('content.xml'));
  const body = child(content, 'body');
  if (!content || !body)
    throw new QuireError('unsupported', `This ${formatName} is damaged: it has no readable content.`);
  const context: OdfContext = {
    breakBefore: new Set([
      ...pageBreakStyles(child(content, 'automatic-styles')),
      ...pageBreakStyles(child(parseXml(zip.text('styles.xml')), 'styles')),
    ]),
  };
  const title = cleanText(textIn(descendants(parseXml(zip.text('meta.xml')), 'title')[0])) || null;
  let units: Unit[];
  if (kind === 'odp') units = slides(child(body, 'presentation'), context);
  else if (kind === 'ods') units = sheets(child(body, 'spreadsheet'));
  else units = [{ label: null, blocks: odfBlocks(child(body, 'text'), context), pages: 'flow' }];
  return { title: title ?? firstHeading(units), units };
}

function firstHeading(units: readonly Unit[]): string | null {
  for (const unit of units) {
    for (const block of unit.blocks) if (block.kind === 'heading') return block.text;
  }
  return null;
}

/** Paragraph styles whose paragraphs start a new page. */
function pageBreakStyles(styles: XmlNode | undefined): string[] {
  return childrenNamed(styles, 'style')
    .filter((style) => child(style, 'paragraph-properties')?.attributes['break-before'] === 'page')
    .map((style) => style.attributes.name ?? '');
}

function slides(presentation: XmlNode | undefined, context: OdfContext): Unit[] {
  return childrenNamed(presentation, 'page').map((page, at) => {
    const blocks: Block[] = [];
    const rest: Block[] = [];
    for (const frame of childrenNamed(page, 'frame')) {
      const role = frame.attributes.class;
      const text = cleanText(
        descendants(frame, 'p')
          .map((p) => inlineText(p))
          .join(' '),
      );
      if (role === 'title' && text) blocks.push({ kind: 'heading', level: 1, text });
      else if (role === 'subtitle' && text) blocks.push({ kind: 'heading', level: 2, text });
      else rest.push(...frameBlocks(frame, context));
    }
    for (const group of childrenNamed(page, 'g')) {
      for (const frame of descendants(group, 'frame')) rest.push(...frameBlocks(frame, context));
    }
    const notes = cleanText(
      childrenNamed(child(page, 'notes'), 'frame')
        .filter((frame) => frame.attributes.class === 'notes')
        .flatMap((frame) => descendants(frame, 'p').map((p) => inlineText(p)))
        .join(' '),
    );
    if (notes) rest.push({ kind: 'note', label: 'Speaker notes', text: notes });
    return { label: `Slide ${at + 1}`, blocks: [...blocks, ...rest], pages: 'fixed' as const };
  });
}

function sheets(spreadsheet: XmlNode | undefined): Unit[] {
  return childrenNamed(spreadsheet, 'table').flatMap((table) => {
    const { rows } = odfTableRows(table);
    const cells: SheetCell[] = [];
    rows.forEach((row, r) =>
      row.forEach((text, c) => text !== '' && cells.push({ row: r + 1, column: c + 1, text })),
    );
    return sheetUnits(table.attributes.name ?? 'Sheet', cells, []);
  });
}
