import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AgentService } from '../../src/core/agent/agentService';
import { Conversation, type AgentEvent } from '../../src/shared/domain/agent';
import { tempDir } from '../helpers/shared';
import { fakePorts } from './fakePorts';
import { ScriptedModel, scriptedRoles, type ScriptStep } from './scriptedModel';

let dir: { path: string; cleanup: () => Promise<void> };
beforeEach(async () => {
  dir = await tempDir('quire-agent-service-');
});
afterEach(async () => {
  await dir.cleanup();
});

const searchOpenAnswer = (query: string): ScriptStep[] => [
  { tool: 'text_search', inputs: { query, k: '3', mode: 'hybrid' } },
  { tool: 'open_citation', inputs: { source: '1', scope: 'chunk' } },
  { tool: 'answer', inputs: { style: 'short' }, end: true },
];

describe('AgentService', () => {
  it('runs in the background, streams events and keeps history for a follow-up', async () => {
    const models = scriptedRoles({
      decide: [...searchOpenAnswer('calibrate_arm'), ...searchOpenAnswer('calibrate_arm minutes')],
      answer: [
        { answer: 'Use the calibrate_arm routine every 30 days [1].' },
        { answer: 'It takes about 4 minutes [1].' },
      ],
    });
    const service = new AgentService({ ports: fakePorts({ models }), dataDir: dir.path });
    const events: AgentEvent[] = [];
    service.onEvent((e) => events.push(e));

    const first = await service.ask('How is the arm calibrated?');
    // The caller has the run id before the run's first event.
    expect(events).toEqual([]);
    await service.waitForRun(first.runId);
    const second = await service.ask('How long does that take?', first.conversationId);
    expect(second.conversationId).toBe(first.conversationId);
    await service.waitForRun(second.runId);

    // The follow-up's prompts carry the first turn.
    const followUpPrompt = models.decide!.requests[3]!.messages.at(-1)!.content;
    expect(followUpPrompt).toContain('How is the arm calibrated?');
    expect(followUpPrompt).toContain('Use the calibrate_arm routine every 30 days');

    const conversation = await service.conversation(first.conversationId);
    expect(conversation.title).toBe('How is the arm calibrated?');
    expect(conversation.turns.map((t) => [t.status, t.answer])).toEqual([
      ['answered', 'Use the calibrate_arm routine every 30 days [1].'],
      ['answered', 'It takes about 4 minutes [1].'],
    ]);
    expect(events.filter((e) => e.type === 'complete').map((e) => e.runId)).toEqual([
      first.runId,
      second.runId,
    ]);
    expect(await service.trace(second.runId)).toEqual(events.filter((e) => e.runId === second.runId));
  });

  it('keeps conversations and traces across a new service instance', async () => {
    const models = scriptedRoles({
      decide: searchOpenAnswer('emergency stop'),
      answer: [{ answer: 'Within 200 ms [1].' }],
    });
    const service = new AgentService({ ports: fakePorts({ models }), dataDir: dir.path });
    const { runId, conversationId } = await service.ask('How fast does the emergency stop act?');
    await service.waitForRun(runId);
    const trace = await service.trace(runId);

    const restarted = new AgentService({
      ports: fakePorts({ models: scriptedRoles({}) }),
      dataDir: dir.path,
    });
    expect(await restarted.conversations()).toEqual([
      expect.objectContaining({
        id: conversationId,
        title: 'How fast does the emergency stop act?',
        turns: 1,
      }),
    ]);
    const conversation = Conversation.parse(await restarted.conversation(conversationId));
    expect(conversation.turns[0]).toMatchObject({
      runId,
      status: 'answered',
      answer: 'Within 200 ms [1].',
      citations: [expect.objectContaining({ documentId: 'doc-safety', page: 1 })],
    });
    expect(await restarted.trace(runId)).toEqual(trace);
    expect(await readdir(join(dir.path, 'conversations'))).toEqual(
      expect.arrayContaining([`${conversationId}.json`, 'traces']),
    );
  });

  it('cancels a run and records it as cancelled', async () => {
    const models = scriptedRoles({
      decide: searchOpenAnswer('emergency stop'),
      answer: [{ tokensThenHang: ['Within '] }],
    });
    const service = new AgentService({ ports: fakePorts({ models }), dataDir: dir.path });
    let runId = '';
    service.onEvent((e) => {
      if (e.type === 'token') service.cancel(e.runId);
    });
    ({ runId } = await service.ask('How fast does the emergency stop act?'));
    const outcome = await service.waitForRun(runId);
    expect(outcome?.status).toBe('cancelled');
    const [summary] = await service.conversations();
    expect((await service.conversation(summary!.id)).turns[0]!.status).toBe('cancelled');
  });

  it('refuses unknown conversations, bad ids and overlong questions', async () => {
    const service = new AgentService({
      ports: fakePorts({ models: scriptedRoles({}) }),
      dataDir: dir.path,
      limits: { maxQuestionChars: 20 },
    });
    await expect(service.ask('hello', 'no-such-conversation')).rejects.toMatchObject({ code: 'not_found' });
    await expect(service.conversation('../../etc/passwd')).rejects.toMatchObject({ code: 'invalid_input' });
    await expect(service.ask('x'.repeat(21))).rejects.toMatchObject({ code: 'invalid_input' });
    await expect(service.trace('unknown-run')).rejects.toMatchObject({ code: 'not_found' });
    expect(await service.conversations()).toEqual([]);
  });

  it('marks a turn cut off by a restart as failed', async () => {
    const hanging = new ScriptedModel('decide', [], () => {
      throw new Error('unreachable');
    });
    const models = scriptedRoles({ decide: hanging, answer: [{ tokensThenHang: ['...'] }] });
    const service = new AgentService({
      ports: fakePorts({ models }),
      dataDir: dir.path,
      limits: { maxIterations: 0 },
    });
    const { conversationId } = await service.ask('How fast does the emergency stop act?');
    // A second instance sees the turn still marked running on disk, with no run behind it.
    const restarted = new AgentService({
      ports: fakePorts({ models: scriptedRoles({}) }),
      dataDir: dir.path,
    });
    expect((await restarted.conversation(conversationId)).turns[0]!.status).toBe('failed');
    await service.dispose();
  });
});
