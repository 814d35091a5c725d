import { describe, expect, it } from 'vitest';
import { describeRecitation, splitClaims } from '../../src/core/agent/claimCheck';
import { analyzeQuestion } from '../../src/core/agent/constraints';
import { findFigures } from '../../src/core/agent/figures';
import { SourceRegistry } from '../../src/core/agent/sources';
import { validateAnswer } from '../../src/core/agent/validation';
import type { FakePage } from './fakePorts';
import { runScripted } from './harness';

interface Passage {
  text: string;
  page: number;
  path?: string;
  chunkId?: string | null;
}

function registry(...passages: Passage[]): SourceRegistry {
  const sources = new SourceRegistry();
  for (const p of passages) {
    sources.addOpened({
      documentId: p.path ?? 'apple-10q',
      path: p.path ?? '/library/APPLE_2023_10Q.pdf',
      page: p.page,
      chunkId: p.chunkId === undefined ? `c${p.page}-${sources.size}` : p.chunkId,
      text: p.text,
      boxes: [],
    });
  }
  return sources;
}

const PAGE_1 = {
  page: 1,
  text: 'Services: Net sales increased 18.2% to $3.2 billion compared with last year.',
};
const PAGE_2 = {
  page: 2,
  text: 'Total net sales for the quarter increased 18.3% to $10.2 billion, driven by iPhone and Mac.',
};
const CLAIM = 'Net sales increased 18.3% to $10.2 billion [1].';

/** The gate on one answer; `question` defaults to one the passages cover, so only the claims decide. */
function check(
  answer: string,
  sources: SourceRegistry,
  extra: { otherEvidence?: string; followUp?: boolean; question?: string } = {},
) {
  const question = extra.question ?? 'By how much did net sales increase?';
  return validateAnswer({
    answer,
    question,
    requirements: analyzeQuestion(question),
    sources,
    otherEvidence: extra.otherEvidence ?? '',
    searches: 1,
    followUp: extra.followUp,
  });
}

describe('each claim is checked against what it cites', () => {
  it('re-cites a claim whose figures are on another retrieved page (the 18.3% / $10.2 billion case)', () => {
    const result = check(CLAIM, registry(PAGE_1, PAGE_2));
    expect(result.problems).toEqual([]);
    expect(result.passed).toBe(true);
    expect(result.answer).toBe('Net sales increased 18.3% to $10.2 billion [2].');
    expect(result.recited).toEqual([{ sentence: CLAIM, from: [1], to: [2] }]);
  });

  it('reports the claim unverified, naming it and its missing figures, when no retrieved page holds them', () => {
    const result = check(CLAIM, registry(PAGE_1));
    expect(result.passed).toBe(false);
    expect(result.recited).toEqual([]);
    expect(result.answer).toBe(CLAIM);
    expect(result.problems).toEqual([
      `The sentence "${CLAIM}" cites [1], which does not contain 18.3%, $10.2 billion. ` +
        '18.3%, $10.2 billion appear in no source: correct or remove them, ' +
        'or, if they are worked out, state the cited figures they come from.',
    ]);
  });

  it('passes a claim that cites the page holding its figures', () => {
    const result = check('Net sales increased 18.3% to $10.2 billion [2].', registry(PAGE_1, PAGE_2));
    expect(result).toMatchObject({ passed: true, problems: [], recited: [] });
  });

  it('holds a sentence with two markers to both passages together', () => {
    const sources = registry(PAGE_1, PAGE_2);
    const answer = 'Services grew 18.2% [1] while total net sales reached $10.2 billion [2].';
    expect(check(answer, sources)).toMatchObject({ passed: true, problems: [], recited: [], answer });
    // A figure in neither is still caught.
    const wrong = check('Services grew 18.2% [1] while total net sales reached $11.4 billion [2].', sources);
    expect(wrong.passed).toBe(false);
    expect(wrong.problems[0]).toContain('cites [1] and [2], which does not contain $11.4 billion.');
  });

  it('keeps a marker that holds part of the claim and adds the page that holds the rest', () => {
    const sources = registry(PAGE_1, { page: 3, text: 'Operating income was $2.9 billion.' });
    const result = check('Services grew 18.2%, with operating income of $2.9 billion [1].', sources);
    expect(result.passed).toBe(true);
    expect(result.answer).toBe('Services grew 18.2%, with operating income of $2.9 billion [1, 2].');
    expect(result.recited).toEqual([expect.objectContaining({ from: [1], to: [1, 2] })]);
  });

  it('counts a chunk and its whole page as one place to re-cite to', () => {
    const sources = registry(PAGE_1, PAGE_2, { ...PAGE_2, chunkId: null });
    expect(sources.size).toBe(3);
    const result = check(CLAIM, sources);
    expect(result.answer).toBe('Net sales increased 18.3% to $10.2 billion [2].');
  });

  it('tells the user where a re-cited sentence moved, by file and page', () => {
    const sources = registry(PAGE_1, PAGE_2, { ...PAGE_2, chunkId: null });
    expect(describeRecitation({ sentence: CLAIM, from: [1], to: [2] }, sources)).toBe(
      'Re-cited "Net sales increased 18.3% to $10.2 billion." from APPLE_2023_10Q.pdf p.1 to ' +
        'APPLE_2023_10Q.pdf p.2, which holds what it states.',
    );
    expect(describeRecitation({ sentence: CLAIM, from: [2], to: [3] }, sources)).toBe(
      'Re-cited "Net sales increased 18.3% to $10.2 billion." to the passage on APPLE_2023_10Q.pdf p.2 ' +
        'that holds what it states.',
    );
  });

  it('asks for the right citation when two different pages hold the figures', () => {
    const other = {
      page: 7,
      path: '/library/APPLE_2024_10Q.pdf',
      text: 'Net sales increased 18.3% to $10.2 billion.',
    };
    const result = check(CLAIM, registry(PAGE_1, PAGE_2, other));
    expect(result.passed).toBe(false);
    expect(result.problems[0]).toContain(
      '18.3%, $10.2 billion are in [2] and [3]: cite the source each comes from.',
    );
  });

  it('checks quotes against the cited passage, and re-cites a quote found on another page', () => {
    const sources = registry(PAGE_1, PAGE_2);
    const right = 'The filing says "driven by iPhone and Mac" [2].';
    expect(check(right, sources)).toMatchObject({ passed: true, recited: [] });
    const moved = check('The filing says "driven by iPhone and Mac" [1].', sources);
    expect(moved).toMatchObject({ passed: true, answer: right, recited: [{ from: [1], to: [2] }] });
    const invented = check('The filing says "driven by strong demand" [2].', sources);
    expect(invented.passed).toBe(false);
    expect(invented.problems[0]).toContain('which does not contain driven by strong demand.');
  });

  it('checks technical terms against the cited passage, except names the question uses', () => {
    const sources = registry(PAGE_1, PAGE_2);
    expect(check('Sales of iPhone rose; total net sales were $10.2 billion [2].', sources).passed).toBe(true);
    const claim = 'Services sales on the iPad rose 18.2% [1].';
    expect(check(claim, sources).problems[0]).toContain('which does not contain iPad.');
    const question = 'How much did iPad net sales increase?';
    expect(check(claim, sources, { question }).passed).toBe(true);
  });

  it('leaves counts below 100 unchecked, and checks bare numbers from 100 on', () => {
    const sources = registry(PAGE_1, { page: 4, text: 'The company operates 4 segments and 1,950 stores.' });
    expect(check('Net sales increased across 3 segments [1].', sources)).toMatchObject({
      passed: true,
      recited: [],
    });
    const stores = check('Services sales came from 1,950 stores [1].', sources);
    expect(stores).toMatchObject({ passed: true, recited: [{ from: [1], to: [2] }] });
    expect(check('Services sales came from 4087 stores [1].', sources).problems[0]).toContain(
      'which does not contain 4087.',
    );
  });

  it('accepts a figure worked out from two the claim states, and no other', () => {
    const sources = registry({ page: 5, text: 'Operating margin was 36.8% in 2021 and 34.6% in 2022.' });
    const question = 'How did the operating margin change?';
    expect(
      check('The margin fell from 36.8% to 34.6%, a drop of 2.2% [1].', sources, { question }).passed,
    ).toBe(true);
    const wrong = check('The margin fell from 36.8% to 34.6%, a drop of 3.1% [1].', sources, { question });
    expect(wrong.problems[0]).toContain('which does not contain 3.1%.');
  });

  it('accepts a figure read from a page image or a file rather than a passage', () => {
    const sources = registry({ page: 9, text: '' });
    const reading = 'The bar for 2023 shows revenue of $4.1 billion [1].';
    const question = 'What was the revenue?';
    expect(check('Revenue was $4.1 billion [1].', sources, { otherEvidence: reading, question }).passed).toBe(
      true,
    );
    const unread = check('Revenue was $4.1 billion [1].', sources, { question });
    expect(unread.problems.join(' ')).toContain('$4.1 billion appears in no source');
  });

  it('treats years as the time a claim is about: anywhere in the material, a file name or the question', () => {
    const sources = registry({ ...PAGE_2, path: '/library/APPLE_2023_10Q.pdf' });
    expect(check('In 2023, net sales increased 18.3% [1].', sources).passed).toBe(true);
    const invented = check('In 2031, net sales increased 18.3% [1].', sources);
    expect(invented.problems[0]).toContain('2031 appears in no source');
    expect(check('In 2031, net sales increased 18.3% [1].', sources, { followUp: true }).passed).toBe(true);
  });

  it('leaves list numbers, page numbers and names with numbers out of the figures', () => {
    const figures = findFigures(
      '1. Per Note 12 on page 4 (pp. 5-6) of the 10-K for FY2023, Q3 sales rose 18.3% (1) to $10.2 billion.',
    ).map((f) => f.text);
    expect(figures).toEqual(['18.3%', '$10.2 billion']);
    expect(findFigures('About 150 stores and USD 640 in fees.').map((f) => f.text)).toEqual(['150', '640']);
    const sources = registry(PAGE_2);
    expect(
      check('1. Net sales increased 18.3% (see page 2) [1].\n2. They reached $10.2 billion [1].', sources)
        .passed,
    ).toBe(true);
  });

  it('compares figures as values: separators, spacing and spelled units do not matter, precision does', () => {
    const sources = registry({
      page: 6,
      text: 'The stop halts motors within 1,000ms; gains were 12.5 percent, or $10,200 million.',
    });
    const gate = (answer: string) =>
      check(answer, sources, {
        question: 'How fast does the stop halt the motors, and what were the gains?',
      });
    expect(gate('It halts them within 1000 ms, a 12.5% gain of $10.2 billion [1].').problems).toEqual([]);
    expect(gate('Gains were about 13% [1].').passed).toBe(true);
    expect(gate('Gains reached $10.2B [1].').passed).toBe(true);
    expect(gate('Gains reached $10.2M [1].').problems.join(' ')).toContain('does not contain $10.2M');
    expect(gate('Gains were 12.6% [1].').problems.join(' ')).toContain('does not contain 12.6%');
    expect(gate('It halts them within 100 ms [1].').problems.join(' ')).toContain('does not contain 100 ms');
  });

  it('splits sentences at their stops, keeping markers after a stop, abbreviations and quotes whole', () => {
    const claims = splitClaims(
      'It is 12 kg. [1] The U.S. team said "Sales rose. Costs fell." [2]\n1. Item 5 kg [1]\nDone',
    );
    expect(claims.map((c) => c.text)).toEqual([
      'It is 12 kg. [1]',
      'The U.S. team said "Sales rose. Costs fell." [2]',
      '1. Item 5 kg [1]',
      'Done',
    ]);
  });

  it('keeps the whole-evidence check for sentences that cite nothing', () => {
    const sources = registry(PAGE_1, PAGE_2);
    expect(check('Services grew 18.2% [1]. Total sales rose 18.3%.', sources).passed).toBe(true);
    const result = check('Services grew 18.2% [1]. Total sales rose 19 percent.', sources);
    expect(result.problems.join(' ')).toContain('These terms appear in no source: 19 percent');
  });
});

const FILING: FakePage[] = [
  {
    documentId: 'apple-10q',
    path: '/library/APPLE_2023_10Q.pdf',
    page: 1,
    paragraphs: ['Services net sales increased 18.2% to $3.2 billion compared with last year.'],
  },
  {
    documentId: 'apple-10q',
    path: '/library/APPLE_2023_10Q.pdf',
    page: 2,
    paragraphs: ['Total net sales increased 18.3% to $10.2 billion, driven by iPhone and Mac.'],
  },
];

describe('a re-cited claim in an agent run', () => {
  const question = 'By how much did net sales increase?';
  const decide = (opened: string[]) => [
    { tool: 'text_search', inputs: { query: 'net sales increased', k: '5', mode: 'hybrid' } },
    ...opened.map((source) => ({ tool: 'open_citation', inputs: { source, scope: 'chunk' } })),
    { tool: 'answer', inputs: { style: 'short' }, end: true },
  ];

  it('reaches the final answer cited to the page that holds the figures', async () => {
    const run = await runScripted({
      question,
      decide: decide(['1', '2']),
      answer: [{ answer: 'Net sales increased 18.3% to $10.2 billion [1].' }],
      ports: { pages: FILING },
    });
    expect(run.ports.calls.openChunk).toEqual(['apple-10q:p1:c0', 'apple-10q:p2:c0']);
    expect(run.outcome.status).toBe('answered');
    expect(run.outcome.answer).toBe('Net sales increased 18.3% to $10.2 billion [1].');
    expect(run.outcome.citations.map((c) => [c.marker, c.path, c.page])).toEqual([
      [1, '/library/APPLE_2023_10Q.pdf', 2],
    ]);
    expect(run.outcome.citations[0]!.snippet).toContain('18.3% to $10.2 billion');
    expect(run.of('validation').map((v) => v.passed)).toEqual([true]);
    expect(run.of('status').map((s) => s.message)).toContain(
      'Re-cited "Net sales increased 18.3% to $10.2 billion." from APPLE_2023_10Q.pdf p.1 to APPLE_2023_10Q.pdf p.2, which holds what it states.',
    );
  });

  it('ends unverified, saying what is missing, when the figures are on no retrieved page', async () => {
    const run = await runScripted({
      question,
      decide: decide(['1']),
      answer: [{ answer: 'Net sales increased 18.3% to $10.2 billion [1].' }],
      ports: { pages: FILING.slice(0, 1) },
      limits: { maxReprompts: 0 },
    });
    expect(run.outcome.status).toBe('unverified');
    expect(run.of('validation').map((v) => v.passed)).toEqual([false]);
    expect(run.outcome.insufficiencies.join(' ')).toContain('which does not contain 18.3%, $10.2 billion');
    expect(run.outcome.citations.map((c) => c.page)).toEqual([1]);
  });

  it('asks the retry for the missing figures and answers once the draft cites its source', async () => {
    const run = await runScripted({
      question,
      decide: [...decide(['1']), { tool: 'answer', inputs: { style: 'short' }, end: true }],
      answer: [
        { answer: 'Net sales increased 18.3% to $10.2 billion [1].' },
        { answer: 'Services net sales increased 18.2% to $3.2 billion [1].' },
      ],
      ports: { pages: FILING.slice(0, 1) },
    });
    expect(run.of('validation').map((v) => v.passed)).toEqual([false, true]);
    const retry = run.models.answer!.requests[1]!.messages.at(-1)!.content;
    expect(retry).toContain('which does not contain 18.3%, $10.2 billion');
    expect(run.outcome.status).toBe('answered');
  });
});
