import { describe, expect, it } from 'vitest';
import { AgentService } from '../../src/core/agent/agentService';
import { tempDir } from '../helpers/shared';
import { fakePorts } from './fakePorts';
import { runScripted } from './harness';
import { scriptedRoles, type ScriptStep } from './scriptedModel';

const searchOpenAnswer = (query: string): ScriptStep[] => [
  { tool: 'text_search', inputs: { query, k: '5', mode: 'hybrid' } },
  { tool: 'open_citation', inputs: { source: '1', scope: 'chunk' } },
  { tool: 'answer', inputs: { style: 'short' }, end: true },
];

describe('A scoped conversation', () => {
  it('searches only its scope, keeps it across turns and a restart, and says what was searched', async () => {
    const dir = await tempDir('quire-agent-scope-');
    try {
      const models = scriptedRoles({
        decide: [
          ...searchOpenAnswer('arm'),
          ...searchOpenAnswer('arm motors'),
          ...searchOpenAnswer('Orbit 3 maximum payload'),
        ],
        answer: [
          { answer: 'Operators must wear eye protection near the arm [1].' },
          { answer: 'The emergency stop halts all motors [1].' },
          { answer: 'The Orbit 3 controller supports a maximum payload of 12 kg [1].' },
        ],
      });
      const ports = fakePorts({ models });
      const first = new AgentService({ ports, dataDir: dir.path });
      const asked = await first.ask('What protects people near the arm?', undefined, {
        scope: { paths: ['/library/safety.pdf'] },
      });
      const one = await first.waitForRun(asked.runId);
      expect(one?.searched).toBe('1 document(s)');
      expect(one?.citations.every((c) => c.documentId === 'doc-safety')).toBe(true);
      // The model is told what it searches, and to say what the scope leaves out.
      expect(models.decide!.requests[0]!.messages.at(-1)!.content).toContain(
        'Scope: the user asks only about 1 document(s)',
      );
      await first.dispose();

      // After a restart the conversation still searches only its scope.
      const second = new AgentService({ ports, dataDir: dir.path });
      const again = await second.ask('And what stops the motors?', asked.conversationId);
      await second.waitForRun(again.runId);
      expect(ports.calls.scopes.at(-1)).toEqual({ paths: ['/library/safety.pdf'] });
      const conversation = await second.conversation(asked.conversationId);
      expect(conversation.scope).toEqual({ paths: ['/library/safety.pdf'] });
      expect(conversation.turns.map((t) => t.searched)).toEqual(['1 document(s)', '1 document(s)']);

      // Null asks the whole library again, and the conversation remembers that too.
      const whole = await second.ask('What payload does the controller take?', asked.conversationId, {
        scope: null,
      });
      const outcome = await second.waitForRun(whole.runId);
      expect(ports.calls.scopes.at(-1)).toBeNull();
      expect(outcome?.searched).toBe('the whole library');
      expect(outcome?.citations[0]?.documentId).toBe('doc-handbook');
      expect((await second.conversation(asked.conversationId)).scope).toBeNull();
      await second.dispose();
    } finally {
      await dir.cleanup();
    }
  });

  it('refuses a scope that admits nothing instead of answering from nothing', async () => {
    const dir = await tempDir('quire-agent-scope-');
    try {
      const service = new AgentService({
        ports: fakePorts({ models: scriptedRoles({}) }),
        dataDir: dir.path,
      });
      await expect(
        service.ask('Anything?', undefined, { scope: { paths: ['/library/gone.pdf'] } }),
      ).rejects.toThrow(/Nothing to search/);
      expect(await service.conversations()).toEqual([]);
      await service.dispose();
    } finally {
      await dir.cleanup();
    }
  });
});

describe('Whole-library answers', () => {
  it('answers "which documents mention" from every matching document and cites each one it names', async () => {
    const run = await runScripted({
      question: 'Which documents mention the arm?',
      decide: [
        { tool: 'find_documents', inputs: { term: 'arm' } },
        { tool: 'open_citation', inputs: { source: '1', scope: 'chunk' } },
        { tool: 'answer', inputs: { style: 'short' }, end: true },
      ],
      answer: [{ answer: 'Two documents mention the arm: handbook.pdf [1] and safety.pdf [2].' }],
    });
    const [result] = run.of('tool_result');
    expect(result).toMatchObject({ tool: 'find_documents', items: 2 });
    expect(run.outcome.status).toBe('answered');
    expect(new Set(run.outcome.citations.map((c) => c.documentId))).toEqual(
      new Set(['doc-handbook', 'doc-safety']),
    );
  });

  it('routes "which files mention" to find_documents and counts documents with the library tool', async () => {
    const routed = await runScripted({
      question: 'Which files mention the emergency stop?',
      decide: [{ raw: 'not json' }, { tool: 'answer', inputs: { style: 'short' }, end: true }],
      answer: [{ answer: 'safety.pdf mentions it [1].' }],
    });
    expect(routed.of('decision')[0]).toMatchObject({
      tool: 'find_documents',
      source: 'router',
      inputs: { term: 'emergency stop' },
    });
    expect(routed.of('tool_result')[0]).toMatchObject({ tool: 'find_documents', items: 1 });

    const counted = await runScripted({
      question: 'How many documents are in the library, by type?',
      decide: [
        {
          tool: 'library',
          inputs: {
            name: '',
            folder: '',
            kind: 'all',
            ocr: 'any',
            sort: 'name',
            count_by: 'type',
            limit: '50',
          },
        },
        { tool: 'answer', inputs: { style: 'short' }, end: true },
      ],
      answer: [{ answer: 'There are 2 documents, both PDFs.' }],
    });
    const [listed] = counted.of('tool_result');
    expect(listed).toMatchObject({ tool: 'library', items: 2 });
    expect(counted.models.answer!.requests[0]!.messages.at(-1)!.content).toContain('pdf: 2');
  });
});
