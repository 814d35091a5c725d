import { describe, expect, it } from 'vitest';
import { findAmbiguity } from '../../src/core/agent/research/ambiguity';
import { matchDocuments, nameWords } from '../../src/core/agent/research/libraryMatch';
import { detectReferences, pageHoldsTarget } from '../../src/core/agent/research/references';
import type { DocumentInfo } from '../../src/shared/domain/library';

const doc = (id: string, name: string): DocumentInfo => ({
  id,
  rootId: 'r',
  path: `/library/${name}.pdf`,
  relativePath: `${name}.pdf`,
  kind: 'pdf',
  bytes: 1,
  modifiedMs: 0,
  pages: 1,
  state: 'indexed',
  error: null,
});

const library = [
  doc('amcor-10k', 'AMCOR_2023_10K'),
  doc('amcor-10q', 'AMCOR_2023Q2_10Q'),
  doc('jnj', 'JOHNSON_JOHNSON_2022_10K'),
  doc('jci', 'JOHNSON_CONTROLS_2022_10K'),
  doc('bestbuy', 'BESTBUY_2023_10K'),
];

describe('document names', () => {
  it('folds filing names and years into comparable words', () => {
    expect(nameWords('the 2022 Form 10-K')).toEqual(['2022', '10k']);
    expect(nameWords('AMCOR_2023Q2_10Q')).toEqual(['amcor', '2023', 'q2', '10q']);
    expect(nameWords("Amcor's annual report for FY2023")).toEqual(['amcor', '10k', '2023']);
  });

  it('matches exactly, as part of a name, or with one typo, and notes a year that does not fit', () => {
    // "Best Buy" is BESTBUY written as two words.
    expect(matchDocuments('Best Buy', library)[0]).toMatchObject({ how: 'exact', score: 1 });
    expect(matchDocuments('Controls', library)[0]).toMatchObject({
      how: 'substring',
      document: { id: 'jci' },
    });
    expect(matchDocuments('Bestbuyy', library)[0]).toMatchObject({ how: 'fuzzy' });
    const [best, second] = matchDocuments('the 2023 Amcor 10-K', library);
    expect(best).toMatchObject({ document: { id: 'amcor-10k' }, yearMismatch: false });
    expect(second?.document.id).toBe('amcor-10q');
    expect(matchDocuments('the 2019 annual report of Amcor', library)[0]?.yearMismatch).toBe(true);
  });
});

describe('ambiguity against the library', () => {
  it('asks which filing of a company, unless a year or kind settles it', () => {
    expect(findAmbiguity('What were Amcor net sales?', library)?.choices.map((c) => c.label)).toEqual([
      'AMCOR_2023_10K',
      'AMCOR_2023Q2_10Q',
    ]);
    expect(findAmbiguity('What were Best Buy net sales?', library)).toBeNull();
  });

  it('asks which company when a name fits two', () => {
    const asked = findAmbiguity('How much debt does Johnson carry?', library);
    expect(asked?.question).toBe('Which "Johnson" do you mean?');
    expect(asked?.choices.map((c) => c.documentIds[0]).sort()).toEqual(['jci', 'jnj']);
    // Both names given: a comparison, not an ambiguity.
    expect(findAmbiguity('Compare Johnson Johnson with Johnson Controls.', library)).toBeNull();
  });
});

describe('reference patterns', () => {
  it('finds sections, tables, figures, appendices, notes and other documents, once each', () => {
    const found = detectReferences(
      'See Note 12 and Note 12 again, Table 3, Fig. 2, Appendix B, Section 4.2 and § 7, as described in the 2022 Form 10-K.',
    );
    expect(found.map((r) => `${r.kind}:${r.target}`)).toEqual([
      'section:4.2',
      'section:7',
      'table:3',
      'figure:2',
      'appendix:B',
      'note:12',
      'document:2022 Form 10-K',
    ]);
  });

  it('tells the page holding a target from a page that only mentions it', () => {
    const note = { kind: 'note' as const, target: '12', text: 'Note 12' };
    expect(pageHoldsTarget('Some text\nNOTE 12 — Revenue\nRevenue is...', note)).toBe(true);
    expect(pageHoldsTarget('As described in Note 12, revenue...', note)).toBe(false);
    expect(pageHoldsTarget('Note 120 Leases', note)).toBe(false);
    const section = { kind: 'section' as const, target: '4.2', text: 'Section 4.2' };
    expect(pageHoldsTarget('4.2 Revenue recognition\ntext', section)).toBe(true);
    expect(pageHoldsTarget('4.21 Other\ntext', section)).toBe(false);
  });
});
