import { describe, expect, it } from 'vitest';
import { failedFiles } from '../../src/core/cli/indexCommands';
import { documentRows } from '../../src/core/cli/libraryTable';
import { formatBytes as cliBytes, shown } from '../../src/core/cli/output';
import { formatBytes as appBytes } from '../../src/renderer/src/lib/format';
import type { DocumentInfo, DocumentState } from '../../src/shared/domain/library';

function doc(relativePath: string, state: DocumentState, error: string | null = null): DocumentInfo {
  return {
    id: relativePath,
    rootId: 'r',
    path: `/papers/${relativePath}`,
    relativePath,
    kind: 'pdf',
    bytes: 1_500_000,
    modifiedMs: 0,
    pages: state === 'indexed' ? 12 : null,
    state,
    error,
  };
}

describe('quire index and library list, in words', () => {
  it('fails naming the files that could not be read, and only those', () => {
    expect(failedFiles([doc('a.pdf', 'indexed'), doc('b.ppt', 'unsupported')])).toBeNull();
    const error = failedFiles([
      doc('a.pdf', 'indexed'),
      doc('broken.pdf', 'failed', 'The file is damaged.'),
      doc('worse.pdf', 'quarantined', 'It kept failing.'),
    ]);
    expect(error?.message).toBe('2 files could not be indexed: /papers/broken.pdf, /papers/worse.pdf.');
  });

  it('keeps the columns of library list, with an error on its own indented line', () => {
    const rows = documentRows(
      [
        doc('annual report 2024.pdf', 'indexed'),
        doc('x.pdf', 'failed', 'The file is damaged: no cross-reference table at the end.'),
        doc('scan.pdf', 'indexed'),
      ],
      shown,
    );
    expect(rows).toEqual([
      '  annual report 2024.pdf  12 p.  1.5 MB',
      '  x.pdf                          1.5 MB  failed',
      '      The file is damaged: no cross-reference table at the end.',
      '  scan.pdf                12 p.  1.5 MB',
    ]);
    // Every row's size ends in the same column, failed or not.
    const sizeEnds = rows.filter((row) => row.includes('MB')).map((row) => row.indexOf('MB'));
    expect(new Set(sizeEnds).size).toBe(1);
  });

  it('gives sizes in decimal units, the same figure as the app', () => {
    for (const bytes of [0, 999, 1500, 1_048_576, 16e9, 25.3e9])
      expect(cliBytes(bytes)).toBe(appBytes(bytes));
    expect(cliBytes(1_048_576)).toBe('1 MB');
    expect(cliBytes(25.3e9)).toBe('25.3 GB');
  });
});
