import type { StreamBehaviour } from './httpStandIn';
import { startOpenAIStandIn, type OpenAIStandIn } from './openaiStandIn';

export interface ScriptedDecision {
  tool: string;
  inputs: Record<string, unknown>;
  end?: boolean;
}

/**
 * The script's replies, whatever the wire format: each decision request (one that asks for JSON)
 * gets the next decision (the last one repeats), a query rewrite or a listwise ranking gets a fixed
 * reply, and every free-text request gets `answer` word by word. `format` is the request's JSON
 * schema: OpenAI's response_format, or Ollama's format.
 */
export function scriptedReplies(
  decisions: ScriptedDecision[],
  answer: string,
): (format: unknown) => string[] {
  let step = 0;
  return (format) => {
    // Search also asks the model to rewrite the question and, with no reranker, to re-rank the results.
    const schema = JSON.stringify(format ?? null);
    if (schema.includes('"subQuestions"'))
      return [JSON.stringify({ query: answer.slice(0, 80), subQuestions: [] })];
    if (schema.includes('"order"')) return [JSON.stringify({ order: ['1'] })];
    if (format) {
      const decision = decisions[Math.min(step++, decisions.length - 1)]!;
      return [JSON.stringify({ reasoning: 'scripted', end: false, ...decision })];
    }
    return answer.match(/\S+\s*/g) ?? [answer];
  };
}

/**
 * An OpenAI-compatible stand-in (SSE streaming, JSON-schema requests) serving one chat model,
 * `scripted-chat`, that plays a fixed script (scriptedReplies).
 */
export function startScriptedAgent(
  decisions: ScriptedDecision[],
  answer: string,
  behaviour: StreamBehaviour = {},
): Promise<OpenAIStandIn> {
  const reply = scriptedReplies(decisions, answer);
  return startOpenAIStandIn([{ id: 'scripted-chat', kind: 'chat' }], {
    ...behaviour,
    reply: (body) => reply(body.response_format),
  });
}
