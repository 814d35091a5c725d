import { basename, dirname } from 'node:path';
import { z } from 'zod';
import { languageName } from '../../../shared/domain/language';
import type { DocumentInfo } from '../../../shared/domain/library';
import { choiceField, objectSchema, textField } from './schema';
import type { Tool } from './types';

const KINDS = [
  'all',
  'pdf',
  'docx',
  'pptx',
  'xlsx',
  'html',
  'markdown',
  'text',
  'epub',
  'image',
  'other',
] as const;
const OCR = ['any', 'read_by_ocr', 'not_ocr'] as const;
const SORTS = ['name', 'pages', 'newest', 'oldest', 'largest'] as const;
const GROUPS = ['none', 'type', 'folder', 'state', 'ocr', 'language'] as const;
const LIMITS = ['20', '50', '100'] as const;

interface Inputs {
  name: string;
  folder: string;
  kind: (typeof KINDS)[number];
  ocr: (typeof OCR)[number];
  sort: (typeof SORTS)[number];
  count_by: (typeof GROUPS)[number];
  limit: number;
}

const MAIN_KINDS = new Set<string>(KINDS.filter((k) => k !== 'all' && k !== 'other'));

function matches(document: DocumentInfo, inputs: Inputs): boolean {
  const name = inputs.name.toLowerCase();
  const folder = inputs.folder.toLowerCase().replace(/^\/+|\/+$/g, '');
  if (name && !document.relativePath.toLowerCase().includes(name)) return false;
  if (folder && !`/${dirname(document.path).toLowerCase()}/`.includes(`/${folder}/`)) return false;
  if (
    inputs.kind === 'other'
      ? MAIN_KINDS.has(document.kind)
      : inputs.kind !== 'all' && document.kind !== inputs.kind
  )
    return false;
  const ocrRead = (document.ocr?.pagesRead ?? 0) > 0;
  if (inputs.ocr === 'read_by_ocr' && !ocrRead) return false;
  if (inputs.ocr === 'not_ocr' && ocrRead) return false;
  return true;
}

const SORTERS: Record<Inputs['sort'], (a: DocumentInfo, b: DocumentInfo) => number> = {
  name: (a, b) => a.relativePath.localeCompare(b.relativePath),
  pages: (a, b) => (b.pages ?? 0) - (a.pages ?? 0),
  newest: (a, b) => b.modifiedMs - a.modifiedMs,
  oldest: (a, b) => a.modifiedMs - b.modifiedMs,
  largest: (a, b) => b.bytes - a.bytes,
};

function groupOf(document: DocumentInfo, by: Inputs['count_by']): string {
  if (by === 'type') return document.kind;
  if (by === 'folder') return dirname(document.path);
  if (by === 'state') return document.state;
  if (by === 'language') return languageName(document.language) ?? 'language unknown';
  return (document.ocr?.pagesRead ?? 0) > 0 ? 'read by OCR' : 'own text';
}

function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  return bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

function describe(document: DocumentInfo): string {
  const facts = [
    document.kind,
    document.pages === null ? null : `${document.pages} p.`,
    formatSize(document.bytes),
    `modified ${new Date(document.modifiedMs).toISOString().slice(0, 10)}`,
    document.state === 'indexed' ? null : document.state,
    (document.ocr?.pagesRead ?? 0) > 0 ? `${document.ocr!.pagesRead} page(s) read by OCR` : null,
    languageName(document.language),
  ].filter(Boolean);
  return `${document.path} (${facts.join(', ')})`;
}

/**
 * What the library holds, from its own records: list, filter, sort and count documents by name,
 * folder, type, pages, date and OCR state. No search: for "how many", "list" and "which files are"
 * questions about the documents themselves rather than their content.
 */
export const libraryTool: Tool<Inputs> = {
  name: 'library',
  description:
    'List or count the documents in the library (in scope) by name, folder, type, pages, date, OCR state and language. ' +
    'No search: use for "how many documents/PDFs", "list my files", "largest/newest files", "which files were scanned".',
  inputSchema: z.object({
    name: z.string().trim().max(80).default(''),
    folder: z.string().trim().max(120).default(''),
    kind: z.enum(KINDS).default('all'),
    ocr: z.enum(OCR).default('any'),
    sort: z.enum(SORTS).default('name'),
    count_by: z.enum(GROUPS).default('none'),
    limit: z.enum(LIMITS).default('50').transform(Number),
  }),
  modelInputSchema: objectSchema({
    name: textField(80, 'part of the file name, or "" for any'),
    folder: textField(120, 'a folder name, or "" for any'),
    kind: choiceField(KINDS, 'which type of document'),
    ocr: choiceField(OCR, 'scanned pages read by OCR or not'),
    sort: choiceField(SORTS, 'order of the list'),
    count_by: choiceField(GROUPS, 'count per group, or none to list'),
    limit: choiceField(LIMITS, 'most documents to list'),
  }),
  ends: false,
  isAvailable: () => true,
  defaultInputs: (state) => ({
    name: '',
    folder: '',
    kind: /\bpdfs?\b/i.test(state.question) ? 'pdf' : 'all',
    ocr: /\b(?:scanned|ocr)\b/i.test(state.question) ? 'read_by_ocr' : 'any',
    sort: /\bnewest|latest|recent\b/i.test(state.question) ? 'newest' : 'name',
    count_by: 'none',
    limit: 50,
  }),
  async *run(inputs, { ports }) {
    const documents = (await ports.libraryDocuments()).filter((d) => matches(d, inputs));
    const lines: string[] = [`${documents.length} document(s) match.`];
    if (inputs.count_by !== 'none') {
      const counts = new Map<string, number>();
      for (const d of documents)
        counts.set(groupOf(d, inputs.count_by), (counts.get(groupOf(d, inputs.count_by)) ?? 0) + 1);
      for (const [group, count] of [...counts].sort((a, b) => b[1] - a[1])) lines.push(`${group}: ${count}`);
    } else {
      const shown = [...documents].sort(SORTERS[inputs.sort]).slice(0, inputs.limit);
      lines.push(...shown.map(describe));
      if (documents.length > shown.length) lines.push(`... and ${documents.length - shown.length} more`);
    }
    const what = [inputs.kind !== 'all' ? inputs.kind : '', inputs.name, inputs.folder]
      .filter(Boolean)
      .join(' ');
    yield {
      type: 'result',
      name: what || 'library',
      text: lines.join('\n'),
      items: documents.length,
      summary: `${documents.length} document(s)${what ? ` (${what})` : ''}${
        documents.length === 1 ? `: ${basename(documents[0]!.path)}` : ''
      }`,
    };
  },
};
