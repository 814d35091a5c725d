import { posix } from 'node:path';
import { cleanText, type Block } from '../../structure/model';
import { chartBlocks } from '../pptx/chartText';
import { child, childrenNamed, descendant, parseXml, relationships, textIn } from '../zip/xmlTree';
import type { ZipEntries } from '../zip/zipArchive';
import type { SheetComment } from './sheetUnits';

/*
 * What exceljs leaves out of a workbook, read from its parts: the sheet order with chart sheets in it,
 * the charts on a chart sheet, threaded comments (Excel 365's, which exceljs sees as empty notes) and
 * the authors of classic notes.
 */

/** Parts a workbook reader needs from the archive. */
export function isWorkbookPart(name: string): boolean {
  return (
    name === 'docProps/core.xml' ||
    name === 'xl/workbook.xml' ||
    name.endsWith('.rels') ||
    /^xl\/(threadedComments|persons|chartsheets|drawings|charts)\//.test(name) ||
    /^xl\/comments[^/]*\.xml$/.test(name)
  );
}

export interface SheetEntry {
  name: string;
  kind: 'worksheet' | 'chartsheet';
  /** The sheet's part, e.g. `xl/worksheets/sheet1.xml`. */
  part: string;
}

export function sheetEntries(zip: ZipEntries): SheetEntry[] {
  const workbook = parseXml(zip.text('xl/workbook.xml'));
  const rels = relationships(zip, 'xl/workbook.xml');
  const entries: SheetEntry[] = [];
  for (const sheet of childrenNamed(child(workbook, 'sheets'), 'sheet')) {
    const rel = rels.get(sheet.attributes.id ?? '');
    if (!rel) continue;
    const kind = rel.type.endsWith('/chartsheet') ? 'chartsheet' : 'worksheet';
    entries.push({ name: sheet.attributes.name ?? '', kind, part: rel.target });
  }
  return entries;
}

/** A worksheet's threaded comments, replies included, labelled with their authors. */
export function threadedComments(zip: ZipEntries, sheetPart: string): SheetComment[] {
  const people = new Map<string, string>();
  for (const name of zip.names) {
    if (!name.startsWith('xl/persons/')) continue;
    for (const person of childrenNamed(parseXml(zip.text(name)), 'person')) {
      if (person.attributes.id)
        people.set(person.attributes.id, cleanText(person.attributes.displayName ?? ''));
    }
  }
  const comments: SheetComment[] = [];
  for (const rel of relationships(zip, sheetPart).values()) {
    if (!rel.type.endsWith('/threadedComment')) continue;
    for (const comment of childrenNamed(parseXml(zip.text(rel.target)), 'threadedComment')) {
      const text = cleanText(textIn(child(comment, 'text')));
      if (!text) continue;
      const author = people.get(comment.attributes.personId ?? '');
      const address = comment.attributes.ref ?? '';
      comments.push({ address: author ? `${address} by ${author}` : address, text });
    }
  }
  return comments;
}

/** Who wrote each classic note (comment) on a worksheet, by cell address. */
export function noteAuthors(zip: ZipEntries, sheetPart: string): Map<string, string> {
  const authors = new Map<string, string>();
  for (const rel of relationships(zip, sheetPart).values()) {
    if (!rel.type.endsWith('/comments')) continue;
    const comments = parseXml(zip.text(rel.target));
    const names = childrenNamed(child(comments, 'authors'), 'author').map((author) =>
      cleanText(textIn(author)),
    );
    for (const comment of childrenNamed(child(comments, 'commentList'), 'comment')) {
      const name = names[Number(comment.attributes.authorId)];
      if (name && comment.attributes.ref) authors.set(comment.attributes.ref, name);
    }
  }
  return authors;
}

/** The charts drawn on a sheet (a chart sheet, or charts placed over a worksheet's cells). */
export function sheetCharts(zip: ZipEntries, sheetPart: string): Block[] {
  const blocks: Block[] = [];
  for (const rel of relationships(zip, sheetPart).values()) {
    if (!rel.type.endsWith('/drawing')) continue;
    const drawingRels = relationships(zip, rel.target);
    const drawing = parseXml(zip.text(rel.target));
    for (const anchor of drawing?.children ?? []) {
      const chart = descendant(anchor, 'chart');
      const target = chart ? drawingRels.get(chart.attributes.id ?? '')?.target : undefined;
      if (target && posix.extname(target) === '.xml') blocks.push(...chartBlocks(parseXml(zip.text(target))));
    }
  }
  return blocks;
}
