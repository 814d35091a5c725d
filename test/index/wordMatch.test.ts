import { describe, expect, it } from 'vitest';
import { formsIn, pluralForms, termWords } from '../../src/core/index/search/wordMatch';

const slotsOf = (term: string) => termWords(term).map((word) => new Set(pluralForms(word)));
const formsOf = (text: string, term: string) => formsIn(text, slotsOf(term));

describe('a term as a word in a passage', () => {
  it('finds the word and its plural, in any case, and not longer words of the same stem', () => {
    expect(formsOf('The Transformer model.', 'transformer')).toEqual(['transformer']);
    expect(formsOf('Two TRANSFORMERS, one transformer’s output.', 'transformer').sort()).toEqual([
      'transformer',
      'transformers',
    ]);
    expect(formsOf('Digital transformation and transformed data.', 'transformer')).toEqual([]);
    expect(formsOf('transformerless designs', 'transformer')).toEqual([]);
    expect(formsOf('Other companies agree.', 'company')).toEqual(['companies']);
    expect(formsOf('The company agrees.', 'companies')).toEqual(['company']);
    expect(formsOf('Boxes and a box.', 'box').sort()).toEqual(['box', 'boxes']);
  });

  it('reads ligatures, words a line break hyphenated, and the parts of letter-digit words', () => {
    expect(formsOf('net ﬁnancial results', 'financial')).toEqual(['financial']);
    expect(formsOf('a power trans-\nformer here', 'transformer')).toEqual(['transformer']);
    expect(formsOf('serviced in FY2022.', '2022')).toEqual(['2022']);
    expect(formsOf('serviced in FY2022.', 'FY2022')).toEqual(['fy2022']);
    expect(formsOf('serviced in FY2022.', 'FY 2022')).toEqual(['fy 2022']);
    expect(formsOf('in 2022 only', 'FY2022')).toEqual([]);
  });

  it('keeps accents and reads a term of several words as a phrase, a leading article dropped', () => {
    expect(formsOf('un café noir', 'cafe')).toEqual([]);
    expect(formsOf('Net revenues rose; revenue, net of tax, fell.', 'net revenue')).toEqual(['net revenues']);
    expect(formsOf('a bill of materials', 'the bill of materials')).toEqual(['bill of materials']);
    expect(formsOf('a bill for materials', 'bill of materials')).toEqual([]);
  });

  it('folds plurals by spelling only', () => {
    expect(pluralForms('policy').sort()).toEqual(['policies', 'policy', 'policyes', 'policys']);
    expect(pluralForms('glass')).not.toContain('glas');
    expect(pluralForms('2022')).toEqual(['2022']);
  });
});
