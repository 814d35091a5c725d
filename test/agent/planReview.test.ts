import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { AgentService } from '../../src/core/agent/agentService';
import type { AgentEvent } from '../../src/shared/domain/agent';
import { tempDir } from '../helpers/shared';
import { AMCOR_FILINGS, fakePorts } from './fakePorts';
import { scriptedRoles, type ScriptStep } from './scriptedModel';

const COMPOUND = 'What is the payload of the Orbit 3 controller and how long does the arm calibration take?';

/** Opens the two sources that hold the answer's facts, then answers citing them. */
const openAndAnswer = (payload: number, calibration: number) => ({
  decide: [
    { tool: 'open_citation', inputs: { source: String(payload), scope: 'chunk' } },
    { tool: 'open_citation', inputs: { source: String(calibration), scope: 'chunk' } },
    { tool: 'answer', inputs: { style: 'short' }, end: true },
  ] as ScriptStep[],
  answer: [
    {
      answer: `The Orbit 3 controller supports a maximum payload of 12 kg [${payload}], and calibrate_arm takes about 4 minutes [${calibration}].`,
    },
  ] as ScriptStep[],
});

/** Searches both parts at once (the payload passage is [1], calibration [2]), then opens them and answers. */
const searchOpenAnswer = () => {
  const { decide, answer } = openAndAnswer(1, 2);
  const query = 'Orbit 3 payload calibrate_arm routine minutes';
  const search: ScriptStep = { tool: 'text_search', inputs: { query, k: '3', mode: 'hybrid' } };
  return { decide: [search, ...decide], answer };
};

describe('plan review', () => {
  let dir: { path: string; cleanup: () => Promise<void> };
  beforeEach(async () => {
    dir = await tempDir('quire-plan-');
  });
  afterEach(async () => {
    await dir.cleanup();
  });

  it('shows the sub-questions, waits, and researches the edited plan after a restart', async () => {
    // The approved searches bring the payload passage as [1] (orbit-flash is [2]) and calibration as [3].
    const models = scriptedRoles(openAndAnswer(1, 3));
    const ports = fakePorts({ models });
    const events: AgentEvent[] = [];
    const before = new AgentService({ ports, dataDir: dir.path });
    before.onEvent((e) => events.push(e));
    const { runId, conversationId } = await before.ask(COMPOUND, undefined, { reviewPlan: true });
    expect((await before.waitForRun(runId))?.status).toBe('paused');
    expect(events.find((e) => e.type === 'plan_review')).toMatchObject({
      subQuestions: [
        'What is the payload of the Orbit 3 controller',
        'how long does the arm calibration take?',
      ],
    });
    // Nothing is searched and no model is asked before the plan is approved.
    expect(ports.calls.searchChunks).toEqual([]);
    expect(models.decide!.requests).toHaveLength(0);
    await before.dispose();

    const after = new AgentService({ ports, dataDir: dir.path });
    expect((await after.conversation(conversationId)).turns[0]).toMatchObject({
      status: 'paused',
      reviewPlan: true,
      planReview: { subQuestions: [expect.any(String), expect.any(String)] },
    });
    await expect(after.clarify(conversationId, runId, 0)).rejects.toThrow(/not waiting/);
    await after.approvePlan(conversationId, runId, [
      'Orbit 3 controller payload',
      '  calibrate_arm duration ',
      ' ',
    ]);
    const done = await after.waitForRun(runId);
    expect(done?.status).toBe('answered');
    // The approved questions, as edited, are searched first; then the loop goes on as usual.
    expect(ports.calls.searchChunks.slice(0, 2)).toEqual([
      'Orbit 3 controller payload',
      'calibrate_arm duration',
    ]);
    const trace = await after.trace(runId);
    expect(trace.map((e) => e.type)).toContain('plan_review');
    expect(trace.filter((e) => e.type === 'complete').map((e) => (e as { status: string }).status)).toEqual([
      'paused',
      'answered',
    ]);
    expect(
      trace.some((e) => e.type === 'status' && e.message.startsWith('Researching the approved plan')),
    ).toBe(true);
    await expect(after.approvePlan(conversationId, runId, ['again'])).rejects.toThrow(/not waiting/);
    await after.dispose();
  });

  it('is off by default, and a question with one part has no plan to approve', async () => {
    for (const [question, options] of [
      [COMPOUND, {}],
      ['What is the payload of the Orbit 3 controller?', { reviewPlan: true }],
    ] as const) {
      const models = scriptedRoles(searchOpenAnswer());
      const service = new AgentService({ ports: fakePorts({ models }), dataDir: dir.path });
      const { runId } = await service.ask(question, undefined, options);
      const outcome = await service.waitForRun(runId);
      expect(outcome?.status).toBe('answered');
      expect(outcome?.events.some((e) => e.type === 'plan_review')).toBe(false);
      await service.dispose();
    }
  });

  it('keeps the reading the user chose when the plan is approved afterwards', async () => {
    const models = scriptedRoles({
      decide: [
        { tool: 'text_search', inputs: { query: 'Amcor net sales', k: '3', mode: 'hybrid' } },
        { tool: 'open_citation', inputs: { source: '1', scope: 'chunk' } },
        { tool: 'answer', inputs: { style: 'short' }, end: true },
      ],
      answer: [{ answer: 'Amcor net sales were 14.7 billion [1].' }],
    });
    const service = new AgentService({
      ports: fakePorts({ models, pages: AMCOR_FILINGS }),
      dataDir: dir.path,
    });
    const { runId, conversationId } = await service.ask(
      'What were Amcor net sales and how did Amcor net sales change?',
      undefined,
      { reviewPlan: true },
    );
    expect((await service.waitForRun(runId))?.clarification).toBeTruthy();
    await service.clarify(conversationId, runId, 1);
    const planned = await service.waitForRun(runId);
    expect(planned?.planReview?.subQuestions).toHaveLength(2);
    await service.approvePlan(conversationId, runId, planned!.planReview!.subQuestions);
    const done = await service.waitForRun(runId);
    expect(done?.status).toBe('answered');
    expect(done?.citations.map((c) => c.documentId)).toEqual(['amcor-23']);
    await service.dispose();
  });
});
