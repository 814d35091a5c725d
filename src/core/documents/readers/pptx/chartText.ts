import { cleanText, type Block } from '../../structure/model';
import { child, childrenNamed, descendant, descendants, textIn, type XmlNode } from '../zip/xmlTree';

/** A chart part (DrawingML `c:chartSpace`) as its title and a table of series by category. */
export function chartBlocks(chartSpace: XmlNode | null): Block[] {
  const chart = child(chartSpace, 'chart');
  if (!chart) return [];
  const blocks: Block[] = [];
  const title = cleanText(textIn(child(chart, 'title'), ['p']));
  blocks.push({ kind: 'paragraph', text: title ? `Chart: ${title}` : 'Chart' });
  const series = descendants(child(chart, 'plotArea'), 'ser');
  let categories: string[] = [];
  const rows: string[][] = [];
  for (const ser of series) {
    const name = cachedValues(child(ser, 'tx'))[0] ?? '';
    const values = cachedValues(child(ser, 'val') ?? child(ser, 'yVal'));
    const cats = cachedValues(child(ser, 'cat') ?? child(ser, 'xVal'));
    if (cats.length > categories.length) categories = cats;
    rows.push([name, ...values]);
  }
  if (rows.length > 0) {
    const width = Math.max(categories.length, ...rows.map((row) => row.length - 1));
    const header = ['', ...Array.from({ length: width }, (_, i) => categories[i] ?? '')];
    blocks.push({ kind: 'table', rows: [header, ...rows], headerRows: 1 });
  }
  return blocks;
}

/** The cached points of a string or number reference (`c:strCache` / `c:numCache`), or literal values. */
function cachedValues(node: XmlNode | undefined): string[] {
  if (!node) return [];
  const cache =
    descendant(node, 'strCache') ??
    descendant(node, 'numCache') ??
    descendant(node, 'strLit') ??
    descendant(node, 'numLit');
  if (cache) {
    return childrenNamed(cache, 'pt')
      .sort((a, b) => Number(a.attributes.idx ?? 0) - Number(b.attributes.idx ?? 0))
      .map((pt) => cleanText(textIn(child(pt, 'v'))));
  }
  const literal = cleanText(textIn(descendant(node, 'v')));
  return literal ? [literal] : [];
}
