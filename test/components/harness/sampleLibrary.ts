/** The stand-in library: one folder of four documents, one of them failed. Data only (no DOM), for specs too. */
import type { DocumentInfo, LibraryRoot } from '../../../src/shared/domain/library';

export const REPORTS: LibraryRoot = {
  id: 'root-reports',
  path: '/home/ana/Reports',
  addedAt: '2026-03-02T09:00:00.000Z',
  error: null,
};

function document(
  id: string,
  name: string,
  fields: Partial<DocumentInfo> & Pick<DocumentInfo, 'state'>,
): DocumentInfo {
  return {
    id,
    rootId: REPORTS.id,
    path: `${REPORTS.path}/${name}`,
    relativePath: name,
    kind: name.endsWith('.docx') ? 'docx' : 'pdf',
    bytes: 100_000,
    modifiedMs: Date.parse('2026-03-01T12:00:00Z'),
    pages: 10,
    error: null,
    ...fields,
  };
}

export const DOCUMENTS: DocumentInfo[] = [
  document('doc-annual', 'annual-report-2023.pdf', { state: 'indexed', pages: 3, bytes: 2_400_000 }),
  document('doc-budget', 'budget-2024.pdf', {
    state: 'failed',
    pages: null,
    bytes: 800_000,
    error: 'The file ended before its last page; it may still have been copying.',
    modifiedMs: Date.parse('2026-03-05T12:00:00Z'),
  }),
  document('doc-minutes', 'minutes-march.docx', { state: 'indexed', pages: 2, bytes: 40_000 }),
  document('doc-safety', 'safety-manual.pdf', { state: 'queued', pages: 48, bytes: 9_000_000 }),
];
