import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { answerMatches, NO_MODEL_MESSAGE, numbersIn, run, spread } from '../../scripts/eval-answers';
import { tempDir } from '../helpers/shared';
import { fakePorts } from './fakePorts';
import type { ChatRequest } from '../../src/core/models/types';
import { ScriptedModel, scriptedRoles } from './scriptedModel';

describe('answer matching', () => {
  it('compares numbers numerically and text after normalisation', () => {
    expect(numbersIn('Revenue rose to $1,234.5 million, up 3%')).toEqual([1234.5, 3]);
    expect(answerMatches('The net fair value was 93.0 million [1].', '93')).toBe(true);
    expect(answerMatches('It was 94 million.', '93')).toBe(false);
    expect(answerMatches('The Eiffel Tower, in Paris.', 'eiffel tower')).toBe(true);
    expect(
      answerMatches(
        'No. Margins fell from 36.8% to 34.6% [1].',
        'No the operating margins declined from 36.8% in FY 2021 to 34.6% in FY2022, a drop of 2.2%.',
      ),
    ).toBe(true);
    expect(
      answerMatches(
        'Yes. Margins fell from 36.8% to 34.6% [1].',
        'No the operating margins declined from 36.8% in FY 2021 to 34.6% in FY2022, a drop of 2.2%.',
      ),
    ).toBe(false);
  });
});

describe('question sampling', () => {
  it('spreads a sample evenly over the list, keeping its order', () => {
    const list = Array.from({ length: 10 }, (_, i) => i);
    expect(spread(list, 4)).toEqual([0, 2, 5, 7]);
    expect(spread(list, 20)).toEqual(list);
  });
});

describe('eval-answers run', () => {
  it('prints "no model configured" and returns nothing when no model is set', async () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    const report = await run([], { ports: fakePorts({ models: scriptedRoles({}) }) });
    expect(log).toHaveBeenCalledWith(NO_MODEL_MESSAGE);
    expect(report.rows).toEqual([]);
    log.mockRestore();
  });

  it('scores accuracy, page recall and declines over a QA file', async () => {
    const dir = await tempDir('quire-eval-answers-');
    try {
      const qa = join(dir.path, 'qa.jsonl');
      const items = [
        {
          id: 'q1',
          source: 'fake',
          question: 'How fast does the emergency stop halt the motors?',
          answer: '200 ms',
          doc: 'library/safety.pdf',
          gold_pages: [1],
          answerable: true,
        },
        {
          id: 'q2',
          source: 'fake',
          question: 'What colour is the arm?',
          answer: 'Not answerable',
          doc: 'library/handbook.pdf',
          gold_pages: [],
          answerable: false,
        },
      ];
      await writeFile(qa, items.map((i) => JSON.stringify(i)).join('\n'));
      const models = scriptedRoles({
        decide: [
          { tool: 'text_search', inputs: { query: 'emergency stop halt motors', k: '3', mode: 'hybrid' } },
          { tool: 'open_citation', inputs: { source: '1', scope: 'chunk' } },
          { tool: 'answer', inputs: { style: 'short' }, end: true },
          { tool: 'text_search', inputs: { query: 'arm colour', k: '3', mode: 'hybrid' } },
          { tool: 'open_citation', inputs: { source: '1', scope: 'chunk' } },
          { tool: 'answer', inputs: { style: 'short' }, end: true },
        ],
        answer: [
          { answer: 'It halts all motors within 200 ms of being pressed [1].' },
          { answer: 'The documents do not mention the colour of the arm.' },
        ],
      });
      const prepared: string[][] = [];
      const report = await run(['--qa', qa], {
        ports: fakePorts({ models }),
        prepare: async (docs) => void prepared.push(docs),
      });
      expect(prepared).toEqual([['library/safety.pdf', 'library/handbook.pdf']]);
      const all = report.rows.find((r) => r.set === 'all')!;
      expect(all).toMatchObject({
        questions: 2,
        accuracy: 1,
        pageRecall: 1,
        declinedUnanswerable: 1,
        falselyDeclined: 0,
        meanToolCalls: 2,
        failed: 0,
        statuses: 'answered 1 / declined 1',
        decisionsParsed: 1,
        gatePassed: 1,
      });
    } finally {
      await dir.cleanup();
    }
  });

  it('bounds the model: the gold pages handed to it (ceiling) and nothing at all (floor)', async () => {
    const dir = await tempDir('quire-eval-bounds-');
    try {
      const qa = join(dir.path, 'qa.jsonl');
      const item = {
        id: 'q1',
        source: 'fake',
        question: 'How fast does the emergency stop halt the motors?',
        answer: '200 ms',
        doc: 'library/safety.pdf',
        gold_pages: [1],
        answerable: true,
      };
      await writeFile(qa, JSON.stringify(item));
      // The model knows the figure only when the page that holds it is in its prompt.
      const fromPrompt = (request: ChatRequest) =>
        JSON.stringify(request.messages).includes('within 200 ms')
          ? 'It halts the motors within 200 ms [1].'
          : 'The documents do not say.';
      const models = scriptedRoles({
        decide: [{ tool: 'answer', inputs: { style: 'short' }, end: true }],
        answer: new ScriptedModel('answer', [], fromPrompt),
      });
      const ports = fakePorts({ models });
      const report = await run(['--qa', qa, '--bounds'], {
        ports,
        documentFor: (doc) => (doc === 'library/safety.pdf' ? 'doc-safety' : null),
      });
      expect(ports.calls.openPage).toContain('doc-safety#1');
      expect(report.rows.find((r) => r.set === 'bounds, same model')).toMatchObject({
        questions: 1,
        'ceiling accuracy (gold pages given)': 1,
        'floor accuracy (no retrieval)': 0,
      });
    } finally {
      await dir.cleanup();
    }
  });

  it('resumes from a progress file: asks only the questions it lacks and reports them all', async () => {
    const dir = await tempDir('quire-eval-resume-');
    try {
      const qa = join(dir.path, 'qa.jsonl');
      const progress = join(dir.path, 'progress.jsonl');
      const items = ['q1', 'q2'].map((id) => ({
        id,
        source: 'fake',
        question: `How fast does the emergency stop halt the motors (${id})?`,
        answer: '200 ms',
        doc: `library/${id}.pdf`,
        gold_pages: [1],
        answerable: true,
      }));
      await writeFile(qa, items.map((i) => JSON.stringify(i)).join('\n'));
      // A stopped run answered q1 correctly and was killed while writing q2's line.
      const earlier = {
        id: 'q1',
        source: 'fake',
        answerable: true,
        status: 'answered',
        correct: true,
        declined: false,
        pageRecall: 1,
        toolCalls: 3,
        seconds: 10,
        answer: 'Within 200 ms [1].',
        error: null,
        decisionsParsed: 2,
        decisionsUnparsed: 0,
        gateVerdicts: [true],
        outputTokens: 20,
        generationSeconds: 5,
      };
      await writeFile(progress, JSON.stringify(earlier) + '\n{"id":"q2","sour');
      const models = scriptedRoles({
        decide: [{ tool: 'answer', inputs: { style: 'short' }, end: true }],
        answer: [{ answer: 'The documents do not say.' }],
      });
      const prepared: string[][] = [];
      const report = await run(['--qa', qa, '--progress', progress, '--resume'], {
        ports: fakePorts({ models }),
        prepare: async (docs) => void prepared.push(docs),
      });
      expect(prepared).toEqual([['library/q2.pdf']]);
      expect(report.rows.find((r) => r.set === 'all')).toMatchObject({ questions: 2, accuracy: 0.5 });
      const lines = (await readFile(progress, 'utf8'))
        .split('\n')
        .filter((l) => l.startsWith('{"id":"q2","source"'));
      expect(lines).toHaveLength(1);
    } finally {
      await dir.cleanup();
    }
  });
});
