import { readFile } from 'node:fs/promises';
import ExcelJS from 'exceljs';
import { QuireError } from '../../../../shared/errors';
import { cleanText, type StructuredDocument, type Unit } from '../../structure/model';
import { coreTitle } from '../zip/coreProperties';
import { readZip } from '../zip/zipArchive';
import { sheetUnits, type SheetCell, type SheetComment } from './sheetUnits';
import { isWorkbookPart, noteAuthors, sheetCharts, sheetEntries, threadedComments } from './workbookParts';

/**
 * An Excel workbook (.xlsx, .xlsm) through exceljs: each sheet is a page, a large sheet one page per
 * range of rows with its header row repeated; blank rows split a sheet into its tables; cell comments
 * follow the table they annotate. Formulas count by their last computed value.
 */
export async function readXlsx(
  path: string,
  options: { signal?: AbortSignal } = {},
): Promise<StructuredDocument> {
  const zip = await readZip(path, {
    formatName: 'Excel workbook',
    keep: isWorkbookPart,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const workbook = new ExcelJS.Workbook();
  try {
    // exceljs's types ask for its own Buffer flavour; a Node Buffer is what it reads.
    await workbook.xlsx.load((await readFile(path)) as unknown as ArrayBuffer);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new QuireError('unsupported', `This Excel workbook is damaged and cannot be read (${reason}).`);
  }
  const entries = sheetEntries(zip);
  const partOf = new Map(entries.map((entry) => [entry.name, entry.part]));
  const worksheets = workbook.worksheets.map((sheet) => {
    options.signal?.throwIfAborted();
    const cells: SheetCell[] = [];
    const part = partOf.get(sheet.name);
    const comments: SheetComment[] = part ? threadedComments(zip, part) : [];
    const authors = part ? noteAuthors(zip, part) : new Map<string, string>();
    sheet.eachRow({ includeEmpty: false }, (row, rowNumber) => {
      row.eachCell({ includeEmpty: false }, (cell, column) => {
        const text = cellText(cell.value);
        if (text !== '') cells.push({ row: rowNumber, column, text });
        // Threaded comments come from their own part; their legacy note is an empty stand-in here.
        const note = noteText(cell.note);
        if (note !== '' && !comments.some((comment) => comment.address.split(' ')[0] === cell.address)) {
          const author = authors.get(cell.address);
          comments.push({ address: author ? `${cell.address} by ${author}` : cell.address, text: note });
        }
      });
    });
    const hidden = sheet.state !== 'visible';
    const charts = part ? sheetCharts(zip, part) : [];
    const label = `${sheet.name}${hidden ? ' (hidden)' : ''}`;
    return { name: sheet.name, units: sheetUnits(label, cells, comments, charts) };
  });
  // The workbook's own order, chart sheets in their place; sheets it does not list come last.
  const units: Unit[] = [];
  const listed = new Set<string>();
  for (const entry of entries) {
    listed.add(entry.name);
    if (entry.kind === 'chartsheet') {
      units.push({
        label: `Chart sheet ${entry.name}`,
        blocks: sheetCharts(zip, entry.part),
        pages: 'fixed',
      });
    } else units.push(...(worksheets.find((sheet) => sheet.name === entry.name)?.units ?? []));
  }
  for (const sheet of worksheets) if (!listed.has(sheet.name)) units.push(...sheet.units);
  return { title: coreTitle(zip.text('docProps/core.xml')), units };
}

/** A cell's value as the text a reader sees: formulas by their result, dates as ISO dates. */
export function cellText(value: ExcelJS.CellValue): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? '' : value.toISOString().slice(0, 10);
  if (typeof value !== 'object') return cleanText(String(value));
  if ('richText' in value && Array.isArray(value.richText))
    return cleanText(value.richText.map((run) => run.text).join(''));
  if ('formula' in value || 'sharedFormula' in value) {
    const result = (value as { result?: ExcelJS.CellValue }).result;
    return result === undefined ? '' : cellText(result);
  }
  if ('hyperlink' in value) return cleanText(String((value as { text?: unknown }).text ?? value.hyperlink));
  if ('error' in value) return cleanText(String(value.error));
  return '';
}

function noteText(note: ExcelJS.Comment | string | undefined): string {
  if (!note) return '';
  if (typeof note === 'string') return cleanText(note);
  return cleanText((note.texts ?? []).map((run) => run.text).join(''));
}
