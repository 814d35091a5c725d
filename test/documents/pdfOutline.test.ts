import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { outlineEntryFor, type Reference } from '../../src/core/agent/research/references';
import { readPdfOutline } from '../../src/core/documents/pdf/pdfOutline';
import { corpusDir, withoutCorpus } from '../helpers/shared';

const noCorpus = withoutCorpus('PDF outlines of corpus PDFs');

const ref = (kind: Reference['kind'], target: string): Reference => ({ kind, target, text: target });

describe('PDF outlines', () => {
  it.skipIf(noCorpus)('reads bookmarks with their pages and nesting', async () => {
    const outline = await readPdfOutline(join(corpusDir, 'docling', 'latex__2305.03393__llncsdoc.pdf'));
    expect(outline).toHaveLength(18);
    expect(outline[0]).toEqual({ title: '1 Installation', page: 1, depth: 0 });
    expect(outline).toContainEqual({ title: '3.4 Format the Header', page: 4, depth: 1 });
    expect(outline.at(-1)).toEqual({ title: '7 Obsolete Class Options', page: 7, depth: 0 });
    // Section 3.4, not 3 nor 3.4.x; Section 4 by its bare number.
    expect(outlineEntryFor(outline, ref('section', '3.4'))?.page).toBe(4);
    expect(outlineEntryFor(outline, ref('section', '3'))?.title).toBe(
      '3 How to Code the Header of Your Paper',
    );
    expect(outlineEntryFor(outline, ref('section', '8'))).toBeNull();
    // A bare number heads a section, never a table.
    expect(outlineEntryFor(outline, ref('table', '3'))).toBeNull();
  });

  it.skipIf(noCorpus)(
    'leaves out bookmarks that open no page of the file, and gives nothing without an outline',
    async () => {
      // Pages cut out of a longer report: its "Table 1." ... bookmarks still point at the original's pages.
      expect(await readPdfOutline(join(corpusDir, 'icdar2013_camelot', 'us-017.pdf'))).toEqual([]);
      expect(await readPdfOutline(join(corpusDir, 'pdfjs', 'calrgb.pdf'))).toEqual([]);
    },
  );

  it('takes tables by caption, notes and appendices by name or by their bare label', () => {
    const outline = [
      { title: 'Table 3. Enrollment by state' },
      { title: 'Notes to the financial statements' },
      { title: '11. Leases' },
      { title: '12. Income taxes' },
      { title: 'Appendix B: Meaning of Symbols' },
    ];
    expect(outlineEntryFor(outline, ref('note', '12'))?.title).toBe('12. Income taxes');
    expect(outlineEntryFor(outline, ref('appendix', 'B'))?.title).toBe('Appendix B: Meaning of Symbols');
    expect(outlineEntryFor(outline, ref('table', '3'))?.title).toBe('Table 3. Enrollment by state');
    expect(outlineEntryFor(outline, ref('table', '12'))).toBeNull();
    expect(outlineEntryFor(outline, ref('note', '1'))).toBeNull();
    expect(outlineEntryFor(outline, ref('document', '2022 Form 10-K'))).toBeNull();
  });
});
