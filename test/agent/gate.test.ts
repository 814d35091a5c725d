import { describe, expect, it } from 'vitest';
import { analyzeQuestion } from '../../src/core/agent/constraints';
import { decisionSchema, parseDecision } from '../../src/core/agent/decision';
import { Environment } from '../../src/core/agent/environment';
import { groundCitations } from '../../src/core/agent/grounding';
import { routeByKeywords } from '../../src/core/agent/router';
import { SourceRegistry } from '../../src/core/agent/sources';
import { createState } from '../../src/core/agent/state';
import { defaultTools } from '../../src/core/agent/tools';
import { findTechnicalTerms } from '../../src/core/agent/claimCheck';
import { validateAnswer } from '../../src/core/agent/validation';

function sources(...texts: string[]): SourceRegistry {
  const registry = new SourceRegistry();
  texts.forEach((text, i) =>
    registry.addOpened({
      documentId: `d${i}`,
      path: `/d${i}.pdf`,
      page: i + 1,
      chunkId: `c${i}`,
      text,
      boxes: [],
    }),
  );
  return registry;
}

/** Walks a JSON schema and returns every place a small model could emit an unbounded value. */
function unboundedFields(schema: unknown, path = '$'): string[] {
  if (typeof schema !== 'object' || schema === null) return [];
  const node = schema as Record<string, unknown>;
  const found: string[] = [];
  if (node.type === 'integer' || node.type === 'number') found.push(`${path}: ${String(node.type)}`);
  if (node.type === 'string' && node.maxLength === undefined && node.enum === undefined)
    found.push(`${path}: string`);
  for (const [key, value] of Object.entries(node)) {
    if (Array.isArray(value))
      value.forEach((v, i) => found.push(...unboundedFields(v, `${path}.${key}[${i}]`)));
    else if (typeof value === 'object') found.push(...unboundedFields(value, `${path}.${key}`));
  }
  return found;
}

describe('decision schema', () => {
  it('bounds every field and offers only the tools given', () => {
    const tools = defaultTools();
    const schema = decisionSchema(tools);
    expect(unboundedFields(schema)).toEqual([]);
    const names = (schema.oneOf as Array<{ properties: { tool: { enum: string[] } } }>).map(
      (v) => v.properties.tool.enum,
    );
    expect(names.flat()).toEqual(tools.map((t) => t.name));
  });

  it('parses fenced JSON and rejects unknown tools and invalid inputs', () => {
    const tools = defaultTools().filter((t) => t.name === 'text_search' || t.name === 'answer');
    const ok = parseDecision(
      '```json\n{"reasoning":"r","tool":"text_search","inputs":{"query":"x","k":"10","mode":"bm25"},"end":false}\n```',
      tools,
    );
    expect(ok).toMatchObject({ ok: true, decision: { inputs: { query: 'x', k: 10, mode: 'bm25' } } });
    expect(parseDecision('{"tool":"open_citation","inputs":{}}', tools)).toMatchObject({ ok: false });
    expect(parseDecision('{"tool":"text_search","inputs":{"query":"","k":"1e9"}}', tools)).toMatchObject({
      ok: false,
    });
  });
});

describe('question analysis and router', () => {
  it('reads requirements from the wording', () => {
    expect(analyzeQuestion('How many PDFs do I have?')).toMatchObject({ aboutFiles: true, minSearches: 0 });
    expect(
      analyzeQuestion('Compare the two manuals; quote them and say so if it is not documented.'),
    ).toMatchObject({
      minOpened: 2,
      exactQuote: true,
      discloseMissing: true,
    });
    expect(analyzeQuestion('Cite at least three sources about calibration.').minOpened).toBe(3);
    expect(analyzeQuestion('Summarise it with sections Risks and Costs.').sections).toEqual([
      'Risks',
      'Costs',
    ]);
    expect(analyzeQuestion('Which documents mention the budget?').aboutFiles).toBe(false);
  });

  it('routes by keywords', () => {
    const tools = defaultTools();
    const route = (q: string) =>
      routeByKeywords(
        createState({
          question: q,
          history: [],
          requirements: analyzeQuestion(q),
          capabilities: { see: false, libraryRoots: ['/r'], web: false },
        }),
        tools,
      ).tool.name;
    expect(route('how many PDFs are there')).toBe('library');
    expect(route('list my files')).toBe('library');
    expect(route('Which files mention the warranty?')).toBe('find_documents');
    expect(route('What is the warranty period?')).toBe('text_search');
  });
});

describe('validation gate', () => {
  const base = {
    question: 'What is the payload?',
    requirements: analyzeQuestion('What is the payload?'),
    otherEvidence: '',
    searches: 1,
  };

  it('passes a grounded answer with a quote that matches after normalisation', () => {
    const registry = sources('The controller supports a maximum\npay-\nload of 12 kg \u2014 see table 3.');
    const answer = 'It supports \u201ca maximum payload of 12 kg\u201d [1].';
    const result = validateAnswer({ ...base, sources: registry, answer });
    expect(result).toEqual({ passed: true, problems: [], answer, recited: [] });
  });

  it('reports every kind of problem', () => {
    const registry = sources('The controller supports a maximum payload of 12 kg.');
    const result = validateAnswer({
      ...base,
      searches: 0,
      sources: registry,
      answer: 'The "payload is twenty kilograms" per PayloadSpec and 20 kg [1][7].',
    });
    const text = result.problems.join('\n');
    expect(text).toContain('Only 0 search(es)');
    expect(text).toContain('[7]');
    expect(text).toContain('payload is twenty kilograms');
    expect(text).toContain('PayloadSpec');
    expect(text).toContain('20 kg');
  });

  it('asks for a disclosure when nothing was found', () => {
    const empty = new SourceRegistry();
    expect(
      validateAnswer({
        ...base,
        searches: 1,
        requirements: { ...base.requirements, minOpened: 0 },
        sources: empty,
        answer: 'It is 5 kg.',
      }).problems,
    ).toContain('The sources barely cover the question; say plainly what the documents do not cover.');
    expect(
      validateAnswer({
        ...base,
        requirements: { ...base.requirements, minOpened: 0 },
        sources: empty,
        answer: 'The documents do not mention the payload.',
      }).passed,
    ).toBe(true);
  });

  it('judges coverage by retrieval alone for a follow-up, whose own words are few', () => {
    const registry = sources('The calibrate_arm routine takes about 4 minutes.');
    const question = 'And how long is that in practice?';
    const input = {
      ...base,
      question,
      requirements: analyzeQuestion(question),
      sources: registry,
      answer: 'About 4 minutes [1].',
    };
    expect(validateAnswer(input).passed).toBe(false);
    expect(validateAnswer({ ...input, followUp: true }).passed).toBe(true);
  });

  it('finds identifiers and numbers with units', () => {
    expect(findTechnicalTerms('Call get_value() or fooBar, wait 200 ms, store 3.5 GB; see [2].')).toEqual(
      expect.arrayContaining(['get_value', 'fooBar', '200 ms', '3.5 GB']),
    );
  });
});

describe('grounding and environment', () => {
  it('renumbers grounded markers in order of use and removes the rest', () => {
    const registry = sources('alpha', 'beta', 'gamma');
    const grounded = groundCitations('B [3], A [1, 9] and again [3][2].', registry);
    expect(grounded.text).toBe('B [1], A [2] and again [1][3].');
    expect(grounded.citations.map((c) => [c.marker, c.documentId])).toEqual([
      [1, 'd2'],
      [2, 'd0'],
      [3, 'd1'],
    ]);
    expect(grounded.removed).toEqual([9]);
  });

  it('keeps the newest results whole within the token budget', () => {
    const env = new Environment();
    env.add('text_search', 'old', 'o'.repeat(4000), 1);
    env.add('text_search', 'new', 'n'.repeat(400), 1);
    const context = env.toLlmContext(300);
    expect(context).toContain('n'.repeat(400));
    expect(context.length).toBeLessThan(1400);
    expect(env.tokens).toBe(1100);
  });
});
