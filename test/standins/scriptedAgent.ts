import type { StreamBehaviour } from './httpStandIn';
import { startOpenAIStandIn, type OpenAIStandIn } from './openaiStandIn';

export interface ScriptedDecision {
  tool: string;
  inputs: Record<string, unknown>;
  end?: boolean;
}

/**
 * An OpenAI-compatible stand-in (SSE streaming, JSON-schema requests) serving one chat model,
 * `scripted-chat`, that plays a fixed script: each decision request gets the next decision (the last
 * one repeats), a query rewrite or a listwise ranking gets a fixed reply, every free-text request
 * streams `answer` word by word.
 */
export function startScriptedAgent(
  decisions: ScriptedDecision[],
  answer: string,
  behaviour: StreamBehaviour = {},
): Promise<OpenAIStandIn> {
  let step = 0;
  return startOpenAIStandIn([{ id: 'scripted-chat', kind: 'chat' }], {
    ...behaviour,
    reply: (body) => {
      // Search also asks the model to rewrite the question and, with no reranker, to re-rank the results.
      const format = JSON.stringify(body.response_format ?? null);
      if (format.includes('"subQuestions"'))
        return [JSON.stringify({ query: answer.slice(0, 80), subQuestions: [] })];
      if (format.includes('"order"')) return [JSON.stringify({ order: ['1'] })];
      if (body.response_format) {
        const decision = decisions[Math.min(step++, decisions.length - 1)]!;
        return [JSON.stringify({ reasoning: 'scripted', end: false, ...decision })];
      }
      return answer.match(/\S+\s*/g) ?? [answer];
    },
  });
}
