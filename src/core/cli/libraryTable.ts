import type { DocumentInfo } from '../../shared/domain/library';
import { formatBytes } from './output';

/** The state column: blank for an indexed file, so the eye finds the others. */
function stateText(doc: DocumentInfo): string {
  return doc.state === 'indexed' ? '' : doc.state;
}

/**
 * `quire library list`'s rows for one folder: name, pages, size and state in aligned columns, and a
 * file's error on its own indented line below it, so a long reason never pushes the columns apart.
 * Widths are counted on the text as the terminal will show it (`shown`), given here as `display`.
 */
export function documentRows(
  documents: readonly DocumentInfo[],
  display: (text: string) => string = (text) => text,
): string[] {
  const names = documents.map((doc) => display(doc.relativePath));
  const pages = documents.map((doc) => (doc.pages === null ? '' : `${doc.pages} p.`));
  const sizes = documents.map((doc) => formatBytes(doc.bytes));
  const width = (column: string[]) => Math.max(0, ...column.map((cell) => cell.length));
  const [nameWidth, pagesWidth, sizeWidth] = [width(names), width(pages), width(sizes)];
  const rows: string[] = [];
  documents.forEach((doc, i) => {
    const cells = [
      names[i]!.padEnd(nameWidth),
      pages[i]!.padStart(pagesWidth),
      sizes[i]!.padStart(sizeWidth),
      stateText(doc),
    ];
    rows.push(`  ${cells.join('  ')}`.trimEnd());
    if (doc.error) rows.push(`      ${display(doc.error)}`);
  });
  return rows;
}
