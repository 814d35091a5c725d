import { describe, expect, it } from 'vitest';

import { applyDocumentPrior } from '../../src/core/index/search/documentPrior';
import { reciprocalRankFusion } from '../../src/core/index/search/fusion';
import { fileNameWords, ftsQuery, snippetAround } from '../../src/core/index/searchText';
import { sqlIn, sqlString } from '../../src/core/index/sql';

describe('query and snippet shaping', () => {
  it('reduces questions to plain words', () => {
    expect(ftsQuery('What is 3M\'s "capex" (FY2022)? AND -x')).toBe('3M capex FY 2022 FY2022');
    // Published English stopwords go, unless nothing else is left; topic words stay.
    expect(ftsQuery('According to the report, what is the total revenue?')).toBe('report total revenue');
    expect(ftsQuery('What is this?')).toBe('What is this');
    expect(ftsQuery('?! ...')).toBe('');
    expect(fileNameWords('/a/b/3M_2022_10K.pdf')).toBe('3M 2022 10K');
  });

  it('centres the snippet where most query words meet', () => {
    const filler = 'lorem ipsum dolor sit amet '.repeat(30);
    const text = `${filler}capital expenditure rose while fixed assets fell ${filler}`;
    const snippet = snippetAround(text, 'capital expenditure and fixed assets', 120);
    expect(snippet).toContain('capital expenditure rose while fixed assets fell');
    expect(snippet.length).toBeLessThanOrEqual(124);
    expect(snippet.startsWith('… ')).toBe(true);
    expect(snippetAround('short text', 'nothing')).toBe('short text');
  });

  it('escapes SQL literals', () => {
    expect(sqlString("O'Brien")).toBe("'O''Brien'");
    expect(sqlIn('id', [])).toBe('false');
    expect(sqlIn('id', ['a', "b'"])).toBe("id IN ('a', 'b''')");
  });
});

describe('reciprocal-rank fusion', () => {
  it('rewards keys ranked by both lists', () => {
    const fused = reciprocalRankFusion([
      ['a', 'b', 'c'],
      ['c', 'b', 'd'],
    ]);
    // c (ranks 3 and 1) edges out b (2 and 2): 1/63 + 1/61 > 2/62.
    expect(fused.map((hit) => hit.key)).toEqual(['c', 'b', 'a', 'd']);
    expect(fused[1]!.score).toBeCloseTo(2 / 62, 10);
    expect(reciprocalRankFusion([])).toEqual([]);
  });
});

describe('document prior', () => {
  const row = (content_hash: string, score: number, id: string) => ({ content_hash, score, id });

  it("scales each passage by its document's share of the evidence", () => {
    const ranked = applyDocumentPrior(
      [row('b', 10, 'b1'), row('a', 8, 'a1'), row('a', 6, 'a2'), row('a', 4, 'a3')],
      { passagesPerDocument: 5, weight: 0.5 },
    );
    // a gathers 18, b 10: b1 becomes 10 * sqrt(10 / 18), about 7.45, below a1's 8.
    expect(ranked.map((r) => r.id)).toEqual(['a1', 'b1', 'a2', 'a3']);
    expect(ranked[1]!.score).toBeCloseTo(10 * Math.sqrt(10 / 18), 10);
    expect(ranked[0]!.score).toBe(8);
  });

  it('counts only the best passages of a document and leaves one document alone', () => {
    const many = Array.from({ length: 20 }, (_, i) => row('long', 1, `l${i}`));
    const ranked = applyDocumentPrior([row('short', 4, 's1'), ...many], {
      passagesPerDocument: 3,
      weight: 1,
    });
    // The long document's twenty weak passages count as three (3 < 4): the strong passage keeps the lead.
    expect(ranked[0]!.id).toBe('s1');
    const single = [row('a', 1, 'x'), row('a', 3, 'y')];
    expect(applyDocumentPrior(single)).toEqual(single);
    expect(applyDocumentPrior([])).toEqual([]);
  });
});
