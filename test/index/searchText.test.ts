import { describe, expect, it } from 'vitest';

import { reciprocalRankFusion } from '../../src/core/index/search/fusion';
import { fileNameWords, ftsQuery, snippetAround } from '../../src/core/index/searchText';
import { sqlIn, sqlString } from '../../src/core/index/sql';

describe('query and snippet shaping', () => {
  it('reduces questions to plain words', () => {
    expect(ftsQuery('What is 3M\'s "capex" (FY2022)? AND -x')).toBe('3M capex FY 2022');
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
