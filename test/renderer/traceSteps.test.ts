import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/shared/domain/agent';
import {
  buildTraceSteps,
  currentStepSentence,
  traceDuration,
} from '../../src/renderer/src/features/trace/traceSteps';
import { describeInputs, toolSentence } from '../../src/renderer/src/features/trace/toolSentences';

const citation = (marker: number, page = 2) => ({
  marker,
  documentId: 'd',
  path: '/x/a.pdf',
  page,
  chunkId: null,
  snippet: '',
  boxes: [],
});

const search = (at: number): AgentEvent => ({
  type: 'decision',
  runId: 'r',
  at,
  tool: 'text_search',
  inputs: { query: 'operating margin 2022', k: '8', mode: 'hybrid' },
  reasoning: 'The question names a figure.',
  end: false,
  source: 'model',
});

describe('the steps timeline', () => {
  it('tells each tool call as one sentence with its count and time, details apart', () => {
    const steps = buildTraceSteps([
      { type: 'plan', runId: 'r', at: 100, requirements: ['cite the page'] },
      search(300),
      {
        type: 'tool_result',
        runId: 'r',
        at: 345,
        tool: 'text_search',
        name: 'c',
        summary: '8 passage(s) for "operating margin 2022"',
        items: 8,
        ms: 40,
      },
    ]);
    expect(steps.map((step) => step.title)).toEqual([
      'Worked out what a good answer needs',
      'Searched the text for “operating margin 2022”: 8 passages',
    ]);
    const searched = steps[1]!;
    expect(searched).toMatchObject({ tool: 'text_search', durationMs: 40, running: false });
    expect(searched.reasoning).toBe('The question names a figure.');
    expect(searched.inputs).toEqual([
      { label: 'Searched for', value: 'operating margin 2022' },
      { label: 'Results asked for', value: '8' },
      { label: 'Search mode', value: 'meaning and keywords' },
    ]);
    // Nothing a user reads is raw JSON.
    expect(JSON.stringify(steps)).not.toMatch(/\{\\"/);
  });

  it('shows a tool that has not answered yet as the live step', () => {
    const steps = buildTraceSteps([search(0)]);
    expect(steps[0]!.running).toBe(true);
    expect(currentStepSentence(steps)).toBe('Searching the text for “operating margin 2022”…');
  });

  it('folds a tool error into its step, tokens into the answer, citations into one step', () => {
    const steps = buildTraceSteps([
      search(0),
      { type: 'error', runId: 'r', at: 50, tool: 'text_search', message: 'index busy', suggestion: 'retry' },
      {
        type: 'decision',
        runId: 'r',
        at: 60,
        tool: 'answer',
        inputs: {},
        reasoning: '',
        end: true,
        source: 'forced',
      },
      { type: 'token', runId: 'r', at: 600, text: 'ab', attempt: 0 },
      { type: 'token', runId: 'r', at: 650, text: 'c', attempt: 0 },
      { type: 'citation', runId: 'r', at: 700, citation: citation(1) },
      { type: 'citation', runId: 'r', at: 700, citation: citation(2, 5) },
      { type: 'complete', runId: 'r', at: 800, status: 'answered', ms: 700, error: null },
    ]);
    expect(steps.map((step) => step.kind)).toEqual(['decision', 'decision', 'citation', 'complete']);
    expect(steps[0]).toMatchObject({ tone: 'error', running: false });
    expect(steps[0]!.title).toBe('Searching the text for “operating margin 2022” failed: index busy');
    expect(steps[1]!.title).toBe('Wrote the answer');
    expect(steps[1]!.lines).toEqual(['Required before the answer.', 'Length: 2 tokens, 3 characters']);
    expect(steps[2]!.title).toBe('Cited 2 pages');
    expect(steps[2]!.lines[1]).toBe('[2] a.pdf, page 5');
    expect(traceDuration([])).toBeNull();
  });

  it('keeps advice meant for the model out of the trace', () => {
    const steps = buildTraceSteps([
      search(0),
      { type: 'error', runId: 'r', at: 50, tool: 'text_search', message: 'index busy', suggestion: 'retry' },
      {
        type: 'error',
        runId: 'r',
        at: 60,
        tool: null,
        message: 'The decision was not JSON.',
        suggestion: 'Reply with one JSON object that follows the schema.',
      },
    ]);
    expect(steps.at(-1)!.title).toBe('The decision was not JSON.');
    expect(JSON.stringify(steps)).not.toMatch(/Reply with|retry/);
  });

  it('phrases the file tools and unknown tools in words', () => {
    expect(toolSentence('count_files', { kind: 'pdf', folder: '' }, 12).done).toBe('Counted the files: 12');
    expect(toolSentence('open_citation', { source: '2', scope: 'page' }, 1).done).toBe(
      'Read the whole page of source [2]',
    );
    expect(toolSentence('new_tool', {}, 1).done).toBe('Used new tool: 1 result');
    expect(describeInputs({ nested: { a: 1 }, list: ['x', 'y'] })).toEqual([
      { label: 'Nested', value: 'a: 1' },
      { label: 'List', value: 'x, y' },
    ]);
  });
});
