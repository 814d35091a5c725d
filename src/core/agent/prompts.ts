/* The messages the decide and answer roles receive. */
import type { ChatMessage } from '../models/types';
import { describeRequirements } from './constraints';
import type { AgentLimits } from './limits';
import type { AgentState } from './state';
import { formatSource } from './tools/format';
import type { AnyTool, JsonSchema } from './tools/types';
import { estimateTokens, truncateToTokens } from './text';

/** A scoped question is told so, and to say what its scope leaves out rather than guess beyond it. */
function scopeText(state: AgentState): string {
  const scope = state.capabilities.scope;
  return scope
    ? `Scope: the user asks only about ${scope}. Every search and file tool sees only these documents; ` +
        'if the answer needs others, say what was left out.'
    : '';
}

function historyText(state: AgentState): string {
  if (state.history.length === 0) return '';
  const turns = state.history.map(
    (t) => `User: ${t.question}\nAssistant: ${truncateToTokens(t.answer, 200)}`,
  );
  return `Earlier in this conversation:\n${turns.join('\n')}\n\n`;
}

function describeInputs(schema: JsonSchema): string {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const parts = Object.entries(properties).map(([key, field]) => {
    const choices = Array.isArray(field.enum)
      ? ` one of ${field.enum.map((v) => JSON.stringify(v)).join('|')}`
      : '';
    return `${key}:${choices || ' text'} (${String(field.description ?? '')})`;
  });
  return parts.length > 0 ? parts.join('; ') : 'none';
}

export function decisionMessages(state: AgentState, tools: AnyTool[], limits: AgentLimits): ChatMessage[] {
  const toolList = tools.map(
    (t) => `- ${t.name}: ${t.description} Inputs: ${describeInputs(t.modelInputSchema)}`,
  );
  const requirements = describeRequirements(state.requirements);
  const done = state.tasks.map((t) => `- ${t.tool} (${t.source}, ${t.ok ? 'ok' : 'failed'}): ${t.summary}`);
  const errors = state.errors
    .slice(-3)
    .map(
      (e) =>
        `- ${e.tool ?? 'agent'}: ${e.message.slice(0, 300)}${e.suggestion ? ` Suggestion: ${e.suggestion}` : ''}`,
    );
  const sections = [
    `${historyText(state)}Question: ${state.question}`,
    scopeText(state),
    requirements.length > 0 ? `Requirements:\n${requirements.map((r) => `- ${r}`).join('\n')}` : '',
    `Done so far (${state.searches} search(es), ${state.sources.openedCount()} source(s) opened):\n${done.join('\n') || '- nothing'}`,
    errors.length > 0 ? `Recent errors:\n${errors.join('\n')}` : '',
    state.validationProblems.length > 0
      ? `Your last answer was rejected:\n${state.validationProblems.map((p) => `- ${p}`).join('\n')}\nFix these before answering again.`
      : '',
    `Results:\n${state.environment.toLlmContext(Math.floor(limits.contextTokens * 0.7))}`,
    `Budget left: ${limits.maxIterations - state.iterations} decision(s), ${limits.maxToolCalls - state.toolCalls} tool call(s).`,
    `Tools available now:\n${toolList.join('\n')}`,
  ];
  return [
    {
      role: 'system',
      content:
        "You choose the next step for answering a question about the user's documents. " +
        'Reply with JSON only: {"reasoning", "tool", "inputs", "end"}. Pick one tool from the list. ' +
        'Search before answering, open the sources you will cite, then choose "answer". Set end to true only with "answer".',
    },
    { role: 'user', content: sections.filter((s) => s !== '').join('\n\n') },
  ];
}

/** The sources for the answer: opened ones first, within the token budget. */
function sourcesText(state: AgentState, maxTokens: number): string {
  const ordered = [...state.sources.all()].sort((a, b) => Number(b.opened) - Number(a.opened) || a.n - b.n);
  const lines: string[] = [];
  let remaining = maxTokens;
  for (const source of ordered) {
    const line = formatSource(source, source.opened ? 3000 : 500);
    const cost = estimateTokens(line);
    if (cost > remaining) continue;
    lines.push(line);
    remaining -= cost;
  }
  return lines.length > 0 ? lines.join('\n') : '(no document passages were found)';
}

export function answerMessages(
  state: AgentState,
  limits: AgentLimits,
  style: 'short' | 'detailed',
): ChatMessage[] {
  const otherResults = state.environment
    .all()
    .filter((e) => !['text_search', 'visual_search', 'open_citation'].includes(e.tool));
  const requirements = describeRequirements(state.requirements);
  const sections = [
    `${historyText(state)}Question: ${state.question}`,
    scopeText(state),
    `Sources:\n${sourcesText(state, Math.floor(limits.contextTokens * 0.6))}`,
    otherResults.length > 0
      ? `Other results:\n${truncateToTokens(otherResults.map((e) => `${e.tool}: ${e.text}`).join('\n'), Math.floor(limits.contextTokens * 0.25))}`
      : '',
    requirements.length > 0 ? `Requirements:\n${requirements.map((r) => `- ${r}`).join('\n')}` : '',
    state.validationProblems.length > 0
      ? `Your previous draft was rejected:\n${state.validationProblems.map((p) => `- ${p}`).join('\n')}\n` +
        `Attempts left after this one: ${Math.max(0, limits.maxReprompts - state.answerAttempts)}.`
      : '',
    state.forcedReason
      ? `${state.forcedReason} Answer with what the sources show and state plainly what is missing.`
      : '',
  ];
  return [
    {
      role: 'system',
      content:
        'Answer the question using only the sources and results given. Put the source number in brackets, like [2], ' +
        'after each claim it supports. Quote word for word inside double quotes only. ' +
        `If the sources do not cover something, say that it is not documented. Keep it ${style === 'short' ? 'brief' : 'complete but focused'}.`,
    },
    { role: 'user', content: sections.filter((s) => s !== '').join('\n\n') },
  ];
}

export function summaryMessages(text: string): ChatMessage[] {
  return [
    {
      role: 'system',
      content:
        'Summarise these tool results in a few lines. Keep every [n] source number next to what it supports.',
    },
    { role: 'user', content: text },
  ];
}
