/*
 * Picks the first tool from the question's wording when the model's first decision is unusable, so a
 * weak or misbehaving model still starts with a sensible step.
 */
import type { AnyTool } from './tools/types';
import type { AgentState, DecisionSource } from './state';

export interface RoutedDecision {
  tool: AnyTool;
  inputs: unknown;
  reasoning: string;
}

const RULES: Array<{ pattern: RegExp; tool: string; why: string }> = [
  {
    pattern:
      /\b(?:which|what|how many|list)\b.*\b(?:documents?|files?|pdfs?|papers?|reports?)\b.*\b(?:mentions?|contains?|talks? about|refers? to|says?|discuss(?:es)?|about)\b/i,
    tool: 'find_documents',
    why: 'the question asks which documents mention something',
  },
  {
    pattern: /\bhow many\b.*\b(?:pdfs?|files?|documents?)\b/i,
    tool: 'library',
    why: 'the question counts documents',
  },
  {
    pattern: /\b(?:folder|directory)\s+(?:tree|structure|layout)\b/i,
    tool: 'directory_tree',
    why: 'the question asks for the folder structure',
  },
  { pattern: /\blist\b/i, tool: 'library', why: 'the question asks for a list of documents' },
];

export function routeByKeywords(state: AgentState, available: AnyTool[]): RoutedDecision {
  const byName = new Map(available.map((tool) => [tool.name, tool]));
  for (const rule of RULES) {
    const tool = byName.get(rule.tool);
    if (tool && rule.pattern.test(state.question)) {
      return { tool, inputs: tool.defaultInputs(state), reasoning: `Keyword router: ${rule.why}.` };
    }
  }
  const fallback = byName.get('text_search') ?? available[0];
  if (!fallback) throw new Error('No tool is available.');
  return {
    tool: fallback,
    inputs: fallback.defaultInputs(state),
    reasoning: 'Keyword router: search the documents.',
  };
}

/**
 * The fixed plan used without a usable decide model: the keyword router's tool first, then open the
 * sources the question requires, then answer.
 */
export function plannedStep(
  state: AgentState,
  available: AnyTool[],
): RoutedDecision & { end: boolean; source: DecisionSource } {
  if (state.tasks.length === 0) {
    const routed = routeByKeywords(state, available);
    return { ...routed, end: false, source: 'router' };
  }
  const open = available.find((t) => t.name === 'open_citation');
  const unopened = state.sources.all().some((s) => !s.opened);
  if (open && unopened && state.sources.openedCount() < state.requirements.minOpened) {
    return {
      tool: open,
      inputs: open.defaultInputs(state),
      reasoning: 'Open the next source.',
      end: false,
      source: 'router',
    };
  }
  const answer = available.find((t) => t.ends)!;
  return {
    tool: answer,
    inputs: answer.defaultInputs(state),
    reasoning: 'Answer from what was found.',
    end: true,
    source: 'router',
  };
}
