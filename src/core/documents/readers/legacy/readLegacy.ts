import WordExtractor from 'word-extractor';
import { QuireError } from '../../../../shared/errors';
import { cleanText, type Block, type StructuredDocument } from '../../structure/model';

/**
 * Word 97-2003 documents (.doc) through word-extractor, which reads the text of the binary format:
 * paragraphs, tables (their cells arrive tab-separated), headers, footnotes and comments. Headings
 * and list structure are not in what it returns, so the text flows onto pages as paragraphs.
 */
export async function readDoc(path: string): Promise<StructuredDocument> {
  let extracted: Awaited<ReturnType<WordExtractor['extract']>>;
  try {
    extracted = await new WordExtractor().extract(path);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new QuireError(
      'unsupported',
      `This Word 97-2003 document is damaged or not a .doc file (${reason}).`,
    );
  }
  const blocks = textBlocks(extracted.getBody());
  const notes: Array<[string, string]> = [
    ['Footnotes', extracted.getFootnotes()],
    ['Endnotes', extracted.getEndnotes()],
    ['Comments', extracted.getAnnotations()],
    ['Headers and footers', extracted.getHeaders({ includeFooters: true })],
  ];
  for (const [label, text] of notes) {
    const clean = cleanText(text ?? '');
    if (clean) blocks.push({ kind: 'note', label, text: clean });
  }
  const first = blocks.find((block) => block.kind === 'paragraph');
  return {
    title: first?.kind === 'paragraph' ? first.text.slice(0, 200) : null,
    units: [{ label: null, blocks, pages: 'flow' }],
  };
}

/** Lines as paragraphs; runs of tab-separated lines as a table. */
function textBlocks(text: string): Block[] {
  const blocks: Block[] = [];
  let rows: string[][] = [];
  const flushTable = () => {
    if (rows.length > 0)
      blocks.push({
        kind: 'table',
        rows: rows.map((row) => padTo(row, Math.max(...rows.map((r) => r.length)))),
        headerRows: rows.length > 1 ? 1 : 0,
      });
    rows = [];
  };
  for (const line of text.split(/\r?\n/)) {
    if (line.includes('\t')) {
      rows.push(line.replace(/\t+$/, '').split('\t').map(cleanText));
      continue;
    }
    flushTable();
    const clean = cleanText(line);
    if (clean) blocks.push({ kind: 'paragraph', text: clean });
  }
  flushTable();
  return blocks;
}

function padTo(row: string[], width: number): string[] {
  return Array.from({ length: width }, (_, i) => row[i] ?? '');
}

const ADVICE: Record<string, string> = {
  ppt: 'PowerPoint 97-2003 presentations (.ppt) are not read: open it in PowerPoint, Keynote or LibreOffice and save it as .pptx.',
  xls: 'Excel 97-2003 workbooks (.xls) are not read: open it in Excel, Numbers or LibreOffice and save it as .xlsx.',
};

/** Formats Quire lists but does not read, with what to do instead. */
export function refuseLegacy(extension: 'ppt' | 'xls'): Promise<never> {
  return Promise.reject(new QuireError('unsupported_format', ADVICE[extension]!));
}
