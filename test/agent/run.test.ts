import { describe, expect, it } from 'vitest';
import { fakePorts } from './fakePorts';
import { runScripted } from './harness';
import { ScriptedModel, scriptedRoles } from './scriptedModel';

describe('runAgent', () => {
  it('stops at once, failed with the reason, when no model can write the answer', async () => {
    const run = await runScripted({ question: 'How fast does the emergency stop act?' });
    expect(run.outcome.status).toBe('failed');
    expect(run.outcome.error).toBe('No model is configured to write answers.');
    // No search, no tool: the plan, the error and the end.
    expect(run.outcome.events.map((event) => event.type)).toEqual(['plan', 'error', 'complete']);
    expect(run.ports.calls.searchChunks).toEqual([]);
  });

  it('answers a factual question from two opened citations', async () => {
    const run = await runScripted({
      question: 'What payload does the Orbit 3 controller support, and how fast does the emergency stop act?',
      decide: [
        { tool: 'text_search', inputs: { query: 'Orbit 3 maximum payload', k: '5', mode: 'hybrid' } },
        { tool: 'text_search', inputs: { query: 'emergency stop halts motors', k: '3', mode: 'bm25' } },
        { tool: 'open_citation', inputs: { source: '1', scope: 'chunk' } },
        { tool: 'open_citation', inputs: { source: '[3]', scope: 'chunk' } },
        { tool: 'answer', inputs: { style: 'short' }, end: true },
      ],
      answer: [
        {
          answer:
            'It supports "a maximum payload of 12 kg" [1]. The emergency stop halts all motors within 200 ms [3].',
        },
      ],
    });
    const { outcome } = run;
    expect(outcome.status).toBe('answered');
    expect(outcome.insufficiencies).toEqual([]);
    expect(outcome.answer).toBe(
      'It supports "a maximum payload of 12 kg" [1]. The emergency stop halts all motors within 200 ms [2].',
    );
    expect(outcome.citations.map((c) => [c.marker, c.documentId, c.page, c.chunkId])).toEqual([
      [1, 'doc-handbook', 1, 'doc-handbook:p1:c0'],
      [2, 'doc-safety', 1, 'doc-safety:p1:c1'],
    ]);
    expect(outcome.citations[1]!.snippet).toContain('within 200 ms of being pressed');
    expect(outcome.citations[0]!.boxes).toHaveLength(1);
    expect(run.ports.calls.openChunk).toEqual(['doc-handbook:p1:c0', 'doc-safety:p1:c1']);
    expect(run.of('citation')).toHaveLength(2);
    expect(run.of('validation').map((v) => v.passed)).toEqual([true]);
    expect(run.of('plan')[0]!.requirements).toContain('open at least 1 citation(s) before answering');
    const tokens = run
      .of('token')
      .map((t) => t.text)
      .join('');
    expect(tokens).toContain('within 200 ms [3]');
    // Each decision was asked under a schema naming only the tools available at that step.
    const firstSchema = JSON.stringify(run.models.decide!.requests[0]!.jsonSchema);
    expect(firstSchema).not.toContain('"open_citation"');
    expect(JSON.stringify(run.models.decide!.requests[2]!.jsonSchema)).toContain('"open_citation"');
  });

  it('opens the source a question requires when the model ends its turn straight after a search', async () => {
    // Seen with a real 1.5B model: it searched with end=true, and every draft then failed the gate
    // for want of an opened source, because drafting alone never opens one.
    const run = await runScripted({
      question: 'What payload does the Orbit 3 controller support?',
      decide: [
        {
          tool: 'text_search',
          inputs: { query: 'Orbit 3 maximum payload', k: '5', mode: 'hybrid' },
          end: true,
        },
      ],
      answer: [{ answer: 'It supports "a maximum payload of 12 kg" [1].' }],
    });
    expect(run.outcome.status).toBe('answered');
    expect(run.ports.calls.openChunk).toEqual(['doc-handbook:p1:c0']);
    const opened = run.of('decision').filter((d) => d.tool === 'open_citation');
    expect(opened.map((d) => d.source)).toEqual(['auto']);
    expect(run.of('validation').map((v) => v.passed)).toEqual([true]);
  });

  it('answers "how many PDFs" from the library tool without searching', async () => {
    const run = await runScripted({
      question: 'How many PDFs do I have?',
      decide: [
        {
          tool: 'library',
          inputs: {
            name: '',
            folder: '',
            kind: 'pdf',
            ocr: 'any',
            sort: 'name',
            count_by: 'none',
            limit: '50',
          },
        },
        { tool: 'answer', inputs: { style: 'short' }, end: true },
      ],
      answer: [{ answer: 'You have 2 PDF documents in your library.' }],
    });
    expect(run.outcome.status).toBe('answered');
    expect(run.outcome.insufficiencies).toEqual([]);
    expect(run.ports.calls.searchChunks).toEqual([]);
    const [result] = run.of('tool_result');
    expect(result).toMatchObject({ tool: 'library', items: 2 });
    expect(run.models.answer!.requests[0]!.messages.at(-1)!.content).toContain(
      '/library/handbook.pdf (pdf, 2 p.',
    );
    expect(run.of('plan')[0]!.requirements.join(' ')).toContain('file tools');
  });

  it('falls back to the keyword router when the first decision is malformed', async () => {
    const run = await runScripted({
      question: 'What does the emergency stop do?',
      decide: [
        { raw: '{"tool": "text_search", "inputs": {"query": ' },
        { tool: 'open_citation', inputs: { source: '1', scope: 'chunk' } },
        { tool: 'answer', inputs: { style: 'short' }, end: true },
      ],
      answer: [{ answer: 'It halts all motors within 200 ms of being pressed [1].' }],
    });
    const decisions = run.of('decision');
    expect(decisions[0]).toMatchObject({ tool: 'text_search', source: 'router' });
    expect(run.ports.calls.searchChunks).toEqual(['emergency stop']);
    expect(run.of('error')[0]!.message).toMatch(/not valid JSON/);
    expect(run.outcome.status).toBe('answered');
    expect(run.outcome.citations).toHaveLength(1);
  });

  it('routes a malformed first step on a file question to the library tool', async () => {
    const run = await runScripted({
      question: 'How many PDF files are in my library?',
      decide: [
        { raw: 'I think we should count them' },
        { tool: 'answer', inputs: { style: 'short' }, end: true },
      ],
      answer: [{ answer: 'There are 2 PDF files.' }],
    });
    expect(run.of('decision')[0]).toMatchObject({
      tool: 'library',
      source: 'router',
      inputs: { kind: 'pdf' },
    });
    expect(run.of('tool_result')[0]).toMatchObject({ items: 2 });
    expect(run.ports.calls.searchChunks).toEqual([]);
  });

  it('strips a citation marker that points at nothing retrieved', async () => {
    const run = await runScripted({
      question: 'How fast does the emergency stop act?',
      decide: [
        { tool: 'text_search', inputs: { query: 'emergency stop', k: '3', mode: 'hybrid' } },
        { tool: 'open_citation', inputs: { source: '1', scope: 'chunk' } },
        { tool: 'answer', inputs: { style: 'short' }, end: true },
      ],
      answer: [{ answer: 'The emergency stop halts all motors within 200 ms [1][5].' }],
      limits: { maxReprompts: 0 },
    });
    expect(run.outcome.answer).toBe('The emergency stop halts all motors within 200 ms [1].');
    expect(run.outcome.citations.map((c) => c.marker)).toEqual([1]);
    expect(run.of('validation')[0]!.problems.join(' ')).toContain('[5]');
    expect(run.outcome.insufficiencies.join(' ')).toContain('[5]');
  });

  it('rejects a quote that is not in the source and reprompts', async () => {
    const run = await runScripted({
      question: 'What must operators wear? Quote the document.',
      decide: [
        { tool: 'text_search', inputs: { query: 'operators wear eye protection', k: '3', mode: 'hybrid' } },
        { tool: 'open_citation', inputs: { source: '1', scope: 'page' } },
        { tool: 'answer', inputs: { style: 'short' }, end: true },
        { tool: 'answer', inputs: { style: 'short' }, end: true },
      ],
      answer: [
        { answer: 'Operators must "wear a helmet at all times" [2].' },
        { answer: 'Operators "must wear eye protection near the arm" [2].' },
      ],
    });
    expect(run.of('validation').map((v) => v.passed)).toEqual([false, true]);
    expect(run.of('validation')[0]!.problems[0]).toContain('wear a helmet at all times');
    expect(run.of('reprompt')).toEqual([expect.objectContaining({ remaining: 1 })]);
    const retry = run.models.answer!.requests[1]!.messages.at(-1)!.content;
    expect(retry).toContain('rejected');
    expect(retry).toContain('wear a helmet at all times');
    // The draft that passed is the one shown; its tokens carry the second attempt number.
    expect(run.outcome.answer).toBe('Operators "must wear eye protection near the arm" [1].');
    expect(new Set(run.of('token').map((t) => t.attempt))).toEqual(new Set([0, 1]));
    expect(run.of('plan')[0]!.requirements).toContain('quote the source word for word');
  });

  it('flags technical terms found in no source', async () => {
    const run = await runScripted({
      question: 'How is the arm calibrated?',
      decide: [
        { tool: 'text_search', inputs: { query: 'calibration calibrate_arm', k: '3', mode: 'bm25' } },
        { tool: 'open_citation', inputs: { source: '1', scope: 'chunk' } },
        { tool: 'answer', inputs: { style: 'short' }, end: true },
      ],
      answer: [
        { answer: 'Run calibrate_arm every 30 days, then call resetController; it takes 9 minutes [1].' },
      ],
      limits: { maxReprompts: 0 },
    });
    const problems = run.of('validation')[0]!.problems.join(' ');
    // The sentence is named whole; what it lacks is listed after it, without what [1] holds.
    expect(problems).toContain('cites [1], which does not contain resetController, 9 minutes.');
    expect(problems).toContain('resetController, 9 minutes appear in no source');
    expect(run.outcome.insufficiencies.join(' ')).toContain('resetController');
  });

  it('holds the step limit against a model that never ends and answers with what is missing', async () => {
    const models = scriptedRoles({
      decide: new ScriptedModel('never-ends', [], {
        tool: 'text_search',
        inputs: { query: 'arm', k: '3', mode: 'hybrid' },
      }),
      answer: new ScriptedModel('answer', [], { answer: 'Keep a clearance of 1.5 m around the arm [1].' }),
    });
    const run = await runScripted({
      question: 'What clearance is needed around the arm?',
      models,
      limits: { maxIterations: 4, maxToolCalls: 10, maxReprompts: 2 },
    });
    expect(models.decide!.requests).toHaveLength(4);
    expect(run.ports.calls.searchChunks).toHaveLength(4);
    const decisions = run.of('decision');
    expect(decisions.filter((d) => d.source === 'model')).toHaveLength(4);
    // Nothing was opened, so every forced draft fails the gate until the reprompt budget is spent.
    expect(decisions.filter((d) => d.source === 'forced')).toHaveLength(3);
    expect(models.answer!.requests).toHaveLength(3);
    expect(run.of('reprompt').map((r) => r.remaining)).toEqual([1, 0]);
    // The last draft still failed the check: shown, but never as answered.
    expect(run.outcome.status).toBe('unverified');
    expect(run.outcome.insufficiencies[0]).toBe('The step limit (4) was reached.');
    expect(run.outcome.insufficiencies.join(' ')).toContain('Only 0 source(s) were opened');
    expect(run.of('final')[0]!.insufficiencies).toEqual(run.outcome.insufficiencies);
  });

  it('holds the tool call limit', async () => {
    const models = scriptedRoles({
      decide: new ScriptedModel('never-ends', [], {
        tool: 'text_search',
        inputs: { query: 'arm', k: '3', mode: 'hybrid' },
      }),
      answer: new ScriptedModel('answer', [], { answer: 'Keep a clearance of 1.5 m around the arm [1].' }),
    });
    const run = await runScripted({
      question: 'What clearance is needed around the arm?',
      models,
      limits: { maxIterations: 50, maxToolCalls: 2, maxReprompts: 0 },
    });
    expect(run.ports.calls.searchChunks).toHaveLength(2);
    expect(run.outcome.insufficiencies[0]).toBe('The tool call limit (2) was reached.');
  });

  it('reports a tool that throws to the model as a recoverable error with a suggestion', async () => {
    let failures = 1;
    const run = await runScripted({
      question: 'What clearance is needed around the arm?',
      decide: [
        { tool: 'text_search', inputs: { query: 'clearance arm', k: '3', mode: 'hybrid' } },
        { tool: 'text_search', inputs: { query: 'clearance', k: '3', mode: 'bm25' } },
        { tool: 'open_citation', inputs: { source: '1', scope: 'chunk' } },
        { tool: 'answer', inputs: { style: 'short' }, end: true },
      ],
      answer: [{ answer: 'Keep a clearance of 1.5 m around the arm while it moves [1].' }],
      ports: {
        searchChunks: async (query, options, signal) => {
          if (failures-- > 0) throw new Error('the index is being rebuilt');
          return fakePorts({ models: scriptedRoles({}) }).searchChunks(query, options, signal);
        },
      },
    });
    const [error] = run.of('error');
    expect(error).toMatchObject({ tool: 'text_search' });
    expect(error!.message).toContain('the index is being rebuilt');
    expect(error!.suggestion).toBeTruthy();
    const secondPrompt = run.models.decide!.requests[1]!.messages.at(-1)!.content;
    expect(secondPrompt).toContain('the index is being rebuilt');
    expect(secondPrompt).toContain(error!.suggestion!);
    expect(run.outcome.status).toBe('answered');
    expect(run.outcome.citations).toHaveLength(1);
  });

  it('stops at once when cancelled mid-answer', async () => {
    const controller = new AbortController();
    const run = await runScripted({
      question: 'How fast does the emergency stop act?',
      decide: [
        { tool: 'text_search', inputs: { query: 'emergency stop', k: '3', mode: 'hybrid' } },
        { tool: 'open_citation', inputs: { source: '1', scope: 'chunk' } },
        { tool: 'answer', inputs: { style: 'short' }, end: true },
      ],
      answer: [{ tokensThenHang: ['The ', 'emergency '] }],
      signal: controller.signal,
      onEvent: (event) => {
        if (event.type === 'token') controller.abort();
      },
    });
    expect(run.outcome.status).toBe('cancelled');
    expect(run.of('complete')[0]).toMatchObject({ status: 'cancelled', error: null });
    expect(run.of('final')).toEqual([]);
    expect(run.of('validation')).toEqual([]);
    expect(run.of('token').length).toBeGreaterThan(0);
  });

  it('stops at once when cancelled while a port that ignores the signal is still working', async () => {
    const controller = new AbortController();
    const run = await runScripted({
      question: 'How fast does the emergency stop act?',
      decide: [{ tool: 'text_search', inputs: { query: 'emergency stop', k: '3', mode: 'hybrid' } }],
      answer: [],
      signal: controller.signal,
      ports: { searchChunks: () => new Promise(() => {}) },
      onEvent: (event) => {
        if (event.type === 'decision') setImmediate(() => controller.abort());
      },
    });
    expect(run.outcome.status).toBe('cancelled');
    expect(run.of('tool_result')).toEqual([]);
  });

  it('carries the conversation history into the prompts of a follow-up', async () => {
    const run = await runScripted({
      question: 'And how long does it take?',
      history: [{ question: 'How is the arm calibrated?', answer: 'With the calibrate_arm routine [1].' }],
      decide: [
        { tool: 'text_search', inputs: { query: 'calibrate_arm duration', k: '3', mode: 'bm25' } },
        { tool: 'open_citation', inputs: { source: '1', scope: 'chunk' } },
        { tool: 'answer', inputs: { style: 'short' }, end: true },
      ],
      answer: [{ answer: 'The calibrate_arm routine takes about 4 minutes [1].' }],
    });
    expect(run.models.decide!.requests[0]!.messages.at(-1)!.content).toContain('How is the arm calibrated?');
    expect(run.models.answer!.requests[0]!.messages.at(-1)!.content).toContain(
      'With the calibrate_arm routine',
    );
    expect(run.outcome.status).toBe('answered');
  });

  it('disables visual_search when no page embedder is configured', async () => {
    const run = await runScripted({
      question: 'Which page shows the clearance diagram?',
      decide: [
        { tool: 'visual_search', inputs: { query: 'clearance diagram', k: '3' } },
        { tool: 'text_search', inputs: { query: 'clearance', k: '3', mode: 'hybrid' } },
        { tool: 'open_citation', inputs: { source: '1', scope: 'page' } },
        { tool: 'answer', inputs: { style: 'short' }, end: true },
      ],
      answer: [
        { answer: 'The clearance is on page 2 of the safety manual [1]; a diagram is not documented.' },
      ],
    });
    expect(run.of('error')[0]).toMatchObject({
      tool: 'visual_search',
      suggestion: 'Use text_search instead.',
    });
    expect(JSON.stringify(run.models.decide!.requests[1]!.jsonSchema)).not.toContain('visual_search');
    expect(run.outcome.status).toBe('answered');
  });

  it('lets the see role read the pages visual_search found', async () => {
    const models = scriptedRoles({
      decide: [
        { tool: 'visual_search', inputs: { query: 'emergency stop motors', k: '3' } },
        { tool: 'visual_interpretation', inputs: { question: 'What does the page say about stopping?' } },
        { tool: 'open_citation', inputs: { source: '1', scope: 'page' } },
        { tool: 'answer', inputs: { style: 'short' }, end: true },
      ],
      answer: [{ answer: 'All motors halt within 200 ms of the emergency stop being pressed [1].' }],
      see: [{ answer: 'Page [1] states that the emergency stop halts all motors within 200 ms.' }],
    });
    const run = await runScripted({
      question: 'How fast do the motors stop?',
      models,
      ports: { pageSearch: true },
    });
    expect(JSON.stringify(models.decide!.requests[0]!.jsonSchema)).not.toContain('visual_interpretation');
    expect(models.see!.requests[0]!.messages.at(-1)!.images).toHaveLength(1);
    expect(run.of('tool_result').map((r) => r.tool)).toEqual([
      'visual_search',
      'visual_interpretation',
      'open_citation',
    ]);
    expect(run.outcome.status).toBe('answered');
  });

  it('summarises older results once the environment passes its budget, keeping them as evidence', async () => {
    const run = await runScripted({
      question: 'What clearance is needed around the arm?',
      decide: [
        { tool: 'text_search', inputs: { query: 'arm', k: '5', mode: 'hybrid' } },
        { tool: 'text_search', inputs: { query: 'controller payload', k: '5', mode: 'hybrid' } },
        { tool: 'text_search', inputs: { query: 'clearance', k: '3', mode: 'bm25' } },
        { tool: 'open_citation', inputs: { source: '3', scope: 'chunk' } },
        { tool: 'answer', inputs: { style: 'short' }, end: true },
      ],
      answer: [
        { answer: 'Searches found arm safety passages [2] and the payload [4].' },
        { answer: 'Keep a clearance of 1.5 m around the arm while it moves [3].' },
      ],
      limits: { environmentTokenBudget: 60 },
    });
    const auto = run.of('decision').filter((d) => d.source === 'auto');
    expect(auto.map((d) => d.tool)).toContain('summarize');
    expect(run.of('tool_result').find((r) => r.tool === 'summarize')).toMatchObject({ name: 'summary' });
    expect(run.models.decide!.requests.at(-1)!.messages.at(-1)!.content).toContain(
      'Searches found arm safety passages',
    );
    expect(run.outcome.status).toBe('answered');
    expect(run.outcome.citations.map((c) => c.chunkId)).toEqual(['doc-safety:p2:c0']);
  });

  it('ends a run that outlives its wall-time limit', async () => {
    const run = await runScripted({
      question: 'What clearance is needed around the arm?',
      decide: [{ tokensThenHang: [] }],
      answer: [],
      limits: { maxWallMs: 100 },
    });
    expect(run.outcome.status).toBe('failed');
    expect(run.of('complete')[0]!.error).toContain('time limit');
    expect(run.of('final')[0]!.insufficiencies[0]).toContain('time limit');
  });

  it('refuses a question over the length limit', async () => {
    const run = await runScripted({
      question: 'x'.repeat(50),
      decide: [],
      answer: [],
      limits: { maxQuestionChars: 40 },
    });
    expect(run.outcome.status).toBe('failed');
    expect(run.outcome.error).toContain('40 characters');
  });
});
