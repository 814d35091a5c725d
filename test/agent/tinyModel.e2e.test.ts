/*
 * The agent over the real node-llama-cpp provider with a tiny random-weight GGUF: the words are noise,
 * so this checks structure only: the run ends within its limits, every decision the model produced
 * parses against the schema it was given, every event is well formed.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAgent } from '../../src/core/agent/runAgent';
import { defaultTools } from '../../src/core/agent/tools';
import { createLlamaProvider, type LlamaProvider } from '../../src/core/models/llama/llamaProvider';
import type { ChatModel, ChatRequest } from '../../src/core/models/types';
import { AgentEvent } from '../../src/shared/domain/agent';
import { tempDir } from '../helpers/shared';
import { writeTinyGguf } from '../helpers/tinyModel';
import { fakePorts } from './fakePorts';

let dir: { path: string; cleanup: () => Promise<void> };
let provider: LlamaProvider;

beforeAll(async () => {
  dir = await tempDir('quire-agent-tiny-');
  const modelPath = join(dir.path, 'tiny.gguf');
  await writeTinyGguf(modelPath, { seed: 11 });
  provider = await createLlamaProvider({
    modelPath,
    gpu: false,
    threads: 1,
    contextSize: 2048,
    roles: ['decide', 'answer'],
  });
  await provider.load();
});

afterAll(async () => {
  await provider?.dispose();
  await dir?.cleanup();
});

/** Checks a value against the JSON Schema subset the decision schema uses (oneOf, objects, strings, booleans). */
function conforms(value: unknown, schema: Record<string, unknown>): boolean {
  if (Array.isArray(schema.oneOf)) {
    return (schema.oneOf as Array<Record<string, unknown>>).filter((s) => conforms(value, s)).length === 1;
  }
  if (Array.isArray(schema.enum) && !schema.enum.includes(value)) return false;
  switch (schema.type) {
    case 'boolean':
      return typeof value === 'boolean';
    case 'string':
      return (
        typeof value === 'string' &&
        (typeof schema.maxLength !== 'number' || value.length <= schema.maxLength)
      );
    case 'object': {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
      const properties = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
      const record = value as Record<string, unknown>;
      if (Object.keys(record).some((k) => !(k in properties))) return false;
      return Object.entries(properties).every(([k, s]) => k in record && conforms(record[k], s));
    }
    default:
      return true;
  }
}

/** Records what the agent asked and what the model said. */
function recording(model: ChatModel) {
  const calls: Array<{ request: ChatRequest; text: string }> = [];
  const wrapped: ChatModel = {
    id: model.id,
    provider: model.provider,
    supportsImages: model.supportsImages,
    chat: async (request) => {
      const response = await model.chat(request);
      calls.push({ request, text: response.text });
      return response;
    },
  };
  return { wrapped, calls };
}

describe('agent with the tiny GGUF', () => {
  it.each([
    'How fast does the emergency stop halt the motors?',
    'How many PDFs do I have?',
    'Quote what the handbook says about firmware updates.',
  ])('completes within its limits with well-formed decisions and events: %s', async (question) => {
    const { wrapped, calls } = recording(provider);
    const tools = defaultTools().filter((t) =>
      ['text_search', 'open_citation', 'library', 'answer'].includes(t.name),
    );
    const ports = fakePorts({
      models: { chatModel: async (role) => (role === 'see' ? null : wrapped) },
      roots: [dir.path],
    });
    const limits = {
      maxIterations: 3,
      maxToolCalls: 3,
      maxReprompts: 1,
      contextTokens: 150,
      decisionMaxTokens: 600,
      answerMaxTokens: 40,
    };
    const outcome = await runAgent({ runId: 'tiny', question, ports, tools, limits });

    for (const event of outcome.events)
      expect(() => AgentEvent.parse(event), JSON.stringify(event)).not.toThrow();
    expect(outcome.events.at(-1)).toMatchObject({ type: 'complete' });
    expect(['answered', 'unverified', 'declined', 'failed']).toContain(outcome.status);
    // Random weights cannot write a checked answer that cites a page.
    if (outcome.status === 'answered') expect(outcome.citations.length).toBeGreaterThan(0);

    const decisions = calls.filter((c) => c.request.jsonSchema);
    expect(decisions.length).toBeGreaterThan(0);
    expect(decisions.length).toBeLessThanOrEqual(limits.maxIterations);
    for (const { request, text } of decisions) {
      // Grammar-constrained output always parses and conforms to the schema of its step.
      const parsed = JSON.parse(text) as unknown;
      expect(conforms(parsed, request.jsonSchema!), text).toBe(true);
    }
    const toolRuns = outcome.events.filter(
      (e) => e.type === 'decision' && e.tool !== 'answer' && e.source !== 'forced',
    ).length;
    expect(toolRuns).toBeLessThanOrEqual(limits.maxToolCalls);
    // Drafts within the reprompt budget, plus at most one summary per tool call.
    const otherCalls = calls.filter((c) => !c.request.jsonSchema);
    expect(otherCalls.length).toBeLessThanOrEqual(limits.maxReprompts + 1 + limits.maxToolCalls);
    if (outcome.status !== 'failed') {
      expect(outcome.events.filter((e) => e.type === 'final')).toHaveLength(1);
      // Whatever the noise said, every citation left points at retrieved material.
      for (const citation of outcome.citations) expect(citation.documentId).toMatch(/^doc-/);
    }
  });
});
