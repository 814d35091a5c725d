import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AgentService } from '../../src/core/agent/agentService';
import type { AgentEvent } from '../../src/shared/domain/agent';
import { tempDir } from '../helpers/shared';
import { AMCOR_FILINGS, fakePorts, type FakePage } from './fakePorts';
import { runScripted } from './harness';
import { scriptedRoles, type ScriptStep } from './scriptedModel';

const FILING: FakePage[] = [
  {
    documentId: 'acme-2022',
    path: '/library/ACME_2022_10K.pdf',
    page: 1,
    paragraphs: ['Revenue recognition policies are described in Note 12.'],
  },
  {
    documentId: 'acme-2022',
    path: '/library/ACME_2022_10K.pdf',
    page: 2,
    paragraphs: ['Risk factors include weather.'],
  },
  {
    documentId: 'acme-2022',
    path: '/library/ACME_2022_10K.pdf',
    page: 5,
    paragraphs: [
      'Note 12 Revenue Recognition',
      'Revenue is recognised when control of the goods passes to the customer, usually on delivery.',
      'Unrelated: the cafeteria opens at eight.',
    ],
  },
];

const searchOpenAnswer = (query: string): ScriptStep[] => [
  { tool: 'text_search', inputs: { query, k: '3', mode: 'hybrid' } },
  { tool: 'open_citation', inputs: { source: '1', scope: 'chunk' } },
  { tool: 'answer', inputs: { style: 'short' }, end: true },
];

describe('reference following', () => {
  it('finds "see Note 12", reads the note and keeps only what bears on the question', async () => {
    const run = await runScripted({
      question: 'When is revenue recognised?',
      decide: searchOpenAnswer('revenue recognition'),
      answer: [{ answer: 'Revenue is recognised when control passes to the customer [2].' }],
      ports: { pages: FILING },
    });
    const [hop] = run.of('reference');
    // The note's heading and its first paragraph bear on revenue; the cafeteria does not.
    expect(hop).toMatchObject({ reference: 'Note 12', depth: 1, kept: 2, note: null });
    expect(hop!.from.page).toBe(1);
    expect(hop!.to?.page).toBe(5);
    const result = run.of('tool_result').find((e) => e.tool === 'follow_references')!;
    expect(result.summary).toBe('followed "Note 12" → p. 5, kept 2 passage(s)');
    // The decision to follow was taken by the auto-trigger, between opening and answering.
    expect(run.of('decision').map((d) => d.tool)).toEqual([
      'text_search',
      'open_citation',
      'follow_references',
      'answer',
    ]);
    expect(run.outcome.citations.map((c) => c.page)).toEqual([5]);
    const sources = run.models.answer!.requests[0]!.messages.at(-1)!.content;
    expect(sources).toContain('control of the goods');
    expect(sources).not.toContain('cafeteria');
  });

  it('resolves a mention of another document by its name', async () => {
    const pages: FakePage[] = [
      {
        documentId: 'acme-q3',
        path: '/library/ACME_2023Q3_10Q.pdf',
        page: 1,
        paragraphs: ['Segment revenue is defined as described in the 2022 Form 10-K.'],
      },
      {
        documentId: 'acme-2021',
        path: '/library/ACME_2021_10K.pdf',
        page: 3,
        paragraphs: ['Segment revenue excludes intersegment sales (2021 definition).'],
      },
      {
        documentId: 'acme-2022',
        path: '/library/ACME_2022_10K.pdf',
        page: 7,
        paragraphs: ['Segment revenue excludes intersegment sales and hedging gains.'],
      },
    ];
    const run = await runScripted({
      question: 'How is segment revenue defined?',
      decide: searchOpenAnswer('segment revenue defined described'),
      answer: [{ answer: 'It excludes intersegment sales and hedging gains [2].' }],
      ports: { pages },
    });
    const [hop] = run.of('reference');
    expect(hop!.reference).toBe('in the 2022 Form 10-K');
    expect(hop!.to).toMatchObject({ documentId: 'acme-2022', page: 7 });
  });

  it('stops the chase at its depth limit and says so in the trace', async () => {
    const chain: FakePage[] = [1, 2, 3, 4].map((n) => ({
      documentId: 'manual',
      path: '/library/manual.pdf',
      page: n,
      paragraphs: [
        n === 1
          ? 'Torque limits: see Section 2.'
          : `Section ${n} Torque\nTorque limits continue in Section ${n + 1}.`,
      ],
    }));
    const run = await runScripted({
      question: 'What are the torque limits?',
      decide: searchOpenAnswer('torque limits see'),
      answer: [{ answer: 'See the torque limits [1].' }],
      ports: { pages: chain },
      limits: { referenceDepth: 2 },
    });
    const hops = run.of('reference');
    expect(hops.map((h) => [h.reference, h.to?.page ?? null])).toEqual([
      ['Section 2', 2],
      ['Section 3', 3],
      ['Section 4', null],
    ]);
    expect(hops[2]!.note).toBe('deeper than 2 reference(s)');
    // Pages past the limit are never opened.
    expect(run.ports.calls.openPage).not.toContain('manual#4');
  });

  it('stops when the token budget for references is spent', async () => {
    const run = await runScripted({
      question: 'When is revenue recognised?',
      decide: searchOpenAnswer('revenue recognition'),
      answer: [{ answer: 'Revenue is recognised on delivery [1].' }],
      ports: { pages: FILING },
      limits: { referenceTokens: 0 },
    });
    // With no budget the auto-trigger does not start a chase at all.
    expect(run.of('reference')).toEqual([]);
    expect(run.of('decision').map((d) => d.tool)).not.toContain('follow_references');
  });
});

describe('coverage check', () => {
  const reports: FakePage[] = [
    {
      documentId: 'r',
      path: '/library/report.pdf',
      page: 1,
      paragraphs: ['Revenue in 2022 was 12 million.'],
    },
    { documentId: 'r', path: '/library/report.pdf', page: 2, paragraphs: ['Revenue in 2021 was 9 million.'] },
  ];

  it('adds a targeted search for a year the draft leaves out, then stops after its rounds', async () => {
    const run = await runScripted({
      question: 'What was the revenue in 2021 and 2022?',
      decide: [
        { tool: 'text_search', inputs: { query: 'revenue 2022', k: '1', mode: 'hybrid' } },
        { tool: 'open_citation', inputs: { source: '1', scope: 'chunk' } },
        { tool: 'answer', inputs: { style: 'short' }, end: true },
        { tool: 'answer', inputs: { style: 'short' }, end: true },
      ],
      answer: [
        { answer: 'Revenue was 12 million in 2022 [1].' },
        { answer: 'Revenue was 12 million in 2022 [1].' },
      ],
      ports: { pages: reports },
      limits: { coverageRounds: 1 },
    });
    const rounds = run.of('coverage');
    expect(rounds.map((r) => [r.round, r.missing, r.searches.length])).toEqual([
      [0, ['2021'], 1],
      [1, ['2021'], 0],
    ]);
    expect(rounds[0]!.searches[0]).toMatch(/^2021 /);
    expect(run.ports.calls.searchChunks).toContain(rounds[0]!.searches[0]);
    expect(run.outcome.insufficiencies).toContain('The sources found do not cover: 2021.');
  });

  it('is quiet when the draft covers every part', async () => {
    const run = await runScripted({
      question: 'What was the revenue in 2022?',
      decide: searchOpenAnswer('revenue 2022'),
      answer: [{ answer: 'Revenue was 12 million in 2022 [1].' }],
      ports: { pages: reports },
    });
    expect(run.of('coverage')).toEqual([]);
    expect(run.outcome.insufficiencies).toEqual([]);
  });
});

describe('clarifying questions', () => {
  let dir: { path: string; cleanup: () => Promise<void> };
  beforeEach(async () => {
    dir = await tempDir('quire-clarify-');
  });
  afterEach(async () => {
    await dir.cleanup();
  });

  const amcor: FakePage[] = [
    ...AMCOR_FILINGS,
    { documentId: 'other', path: '/library/handbook.pdf', page: 1, paragraphs: ['Nothing about sales.'] },
  ];

  it('pauses with choices from the library and resumes with the answer after a restart', async () => {
    const models = scriptedRoles({
      decide: searchOpenAnswer('Amcor net sales'),
      answer: [{ answer: 'Amcor net sales were 14.7 billion [1].' }],
    });
    const ports = fakePorts({ models, pages: amcor });
    const events: AgentEvent[] = [];
    const before = new AgentService({ ports, dataDir: dir.path });
    before.onEvent((e) => events.push(e));
    const { runId, conversationId } = await before.ask('What were Amcor net sales?');
    const paused = await before.waitForRun(runId);
    expect(paused?.status).toBe('paused');
    const asked = events.find((e) => e.type === 'clarify');
    expect(asked).toMatchObject({
      question: 'Which AMCOR document do you mean?',
      choices: [
        { label: 'AMCOR_2022_10K', documentIds: ['amcor-22'] },
        { label: 'AMCOR_2023_10K', documentIds: ['amcor-23'] },
      ],
    });
    // Nothing was searched before the question was settled.
    expect(ports.calls.searchChunks).toEqual([]);
    await before.dispose();

    // A new service on the same data folder: the paused run is on disk.
    const after = new AgentService({ ports, dataDir: dir.path });
    const stored = await after.conversation(conversationId);
    expect(stored.turns[0]).toMatchObject({
      status: 'paused',
      clarification: { question: 'Which AMCOR document do you mean?' },
    });
    await after.clarify(conversationId, runId, 1);
    const done = await after.waitForRun(runId);
    expect(done?.status).toBe('answered');
    expect(done?.citations.map((c) => c.documentId)).toEqual(['amcor-23']);
    expect(done?.insufficiencies).toEqual([]);
    // The trace keeps the question and the resumed run.
    const trace = await after.trace(runId);
    expect(trace.map((e) => e.type)).toContain('clarify');
    expect(trace.filter((e) => e.type === 'complete').map((e) => (e as { status: string }).status)).toEqual([
      'paused',
      'answered',
    ]);
    await expect(after.clarify(conversationId, runId, 0)).rejects.toThrow(/not waiting/);
    await after.dispose();
  });

  it('without clarifying, assumes a reading and says which', async () => {
    const models = scriptedRoles({
      decide: searchOpenAnswer('Amcor net sales'),
      answer: [{ answer: 'Amcor net sales were 14.5 billion [1].' }],
    });
    const service = new AgentService({ ports: fakePorts({ models, pages: amcor }), dataDir: dir.path });
    const { runId } = await service.ask('What were Amcor net sales?', undefined, { clarify: false });
    const outcome = await service.waitForRun(runId);
    expect(outcome?.status).toBe('answered');
    expect(outcome?.insufficiencies[0]).toBe(
      'The question could mean several documents; this answer assumes AMCOR_2022_10K (not AMCOR_2023_10K).',
    );
    expect(outcome?.events.some((e) => e.type === 'clarify')).toBe(false);
    await service.dispose();
  });

  it('asks about "the report" only when the search spreads over several documents', async () => {
    const reports: FakePage[] = [
      { documentId: 'a', path: '/library/alpha.pdf', page: 1, paragraphs: ['The budget grew by 4 percent.'] },
      {
        documentId: 'b',
        path: '/library/beta.pdf',
        page: 1,
        paragraphs: ['The budget shrank by 2 percent.'],
      },
      { documentId: 'c', path: '/library/gamma.pdf', page: 1, paragraphs: ['Staff counts stayed flat.'] },
    ];
    const models = scriptedRoles({ decide: searchOpenAnswer('staff'), answer: [{ answer: 'Flat [1].' }] });
    const service = new AgentService({ ports: fakePorts({ models, pages: reports }), dataDir: dir.path });
    const spread = await service.ask('How did the budget change according to the report?');
    const paused = await service.waitForRun(spread.runId);
    expect(paused?.clarification?.choices.map((c) => c.label)).toEqual(['alpha', 'beta']);
    const one = await service.ask('What happened to staff counts in this report?');
    expect((await service.waitForRun(one.runId))?.status).toBe('answered');
    await service.dispose();
  });

  it('does not ask when the year names one document', async () => {
    const models = scriptedRoles({
      decide: searchOpenAnswer('Amcor net sales 2023'),
      answer: [{ answer: 'Amcor net sales were 14.7 billion in 2023 [1].' }],
    });
    const service = new AgentService({ ports: fakePorts({ models, pages: amcor }), dataDir: dir.path });
    const { runId } = await service.ask('What were Amcor net sales in 2023?');
    expect((await service.waitForRun(runId))?.status).toBe('answered');
    await service.dispose();
  });
});
