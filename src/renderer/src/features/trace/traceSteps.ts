import type { AgentEvent } from '../../../../shared/domain/agent';
import { fileName, plural } from '../../lib/format';

export type StepTone = 'normal' | 'success' | 'warning' | 'error';

/** One row of the timeline; runs of token or citation events fold into a single step. */
export interface TraceStep {
  key: string;
  kind: AgentEvent['type'];
  title: string;
  /** Milliseconds from the run's first event. */
  offsetMs: number;
  /** How long the step took: the tool's own timing, else the wait since the previous step. */
  durationMs: number | null;
  tone: StepTone;
  reasoning: string | null;
  inputs: string | null;
  lines: string[];
}

function formatInputs(inputs: Record<string, unknown>): string | null {
  return Object.keys(inputs).length === 0 ? null : JSON.stringify(inputs, null, 2);
}

function describe(event: AgentEvent): Omit<TraceStep, 'key' | 'offsetMs' | 'durationMs'> {
  const base = { kind: event.type, tone: 'normal' as StepTone, reasoning: null, inputs: null, lines: [] };
  switch (event.type) {
    case 'plan':
      return { ...base, title: 'Plan', lines: event.requirements };
    case 'decision':
      return {
        ...base,
        title: `Decided: ${event.tool}${event.source === 'model' ? '' : ` (${event.source})`}`,
        reasoning: event.reasoning || null,
        inputs: formatInputs(event.inputs),
      };
    case 'status':
      return { ...base, title: event.message };
    case 'tool_result':
      return {
        ...base,
        title: `${event.tool}: ${plural(event.items, 'result')}`,
        lines: event.summary ? [event.summary] : [],
      };
    case 'error':
      return {
        ...base,
        tone: 'error',
        title: event.tool ? `Error in ${event.tool}` : 'Error',
        lines: [event.message, ...(event.suggestion ? [`Suggestion: ${event.suggestion}`] : [])],
      };
    case 'validation':
      return {
        ...base,
        tone: event.passed ? 'success' : 'warning',
        title: event.passed
          ? 'Answer passed the checks'
          : `Answer failed ${plural(event.problems.length, 'check')}`,
        lines: event.problems,
      };
    case 'reprompt':
      return {
        ...base,
        tone: 'warning',
        title: `Asked for a revision (${plural(event.remaining, 'try', 'tries')} left)`,
        lines: event.problems,
      };
    case 'token':
      return { ...base, title: 'Wrote the answer' };
    case 'citation':
      return { ...base, title: 'Cited' };
    case 'final':
      return {
        ...base,
        title: `Final answer with ${plural(event.citations.length, 'citation')}`,
        tone: event.insufficiencies.length > 0 ? 'warning' : 'normal',
        lines: event.insufficiencies.map((gap) => `Not covered: ${gap}`),
      };
    case 'reference':
      return {
        ...base,
        tone: event.to ? 'normal' : 'warning',
        title: event.to
          ? `Followed "${event.reference}" → p. ${event.to.page}${event.to.documentId === event.from.documentId ? '' : ` of ${fileName(event.to.path)}`}`
          : `Did not follow "${event.reference}"`,
        lines: [
          `from ${fileName(event.from.path)}, page ${event.from.page}; depth ${event.depth}`,
          ...(event.to ? [`kept ${plural(event.kept, 'passage')}`] : []),
          ...(event.note ? [event.note] : []),
        ],
      };
    case 'coverage':
      return {
        ...base,
        tone: event.missing.length > 0 ? 'warning' : 'success',
        title: `Coverage check ${event.round + 1}: ${plural(event.covered.length, 'part')} covered, ${event.missing.length} missing`,
        lines: [
          ...(event.missing.length > 0 ? [`Missing: ${event.missing.join(', ')}`] : []),
          ...event.searches.map((query) => `Searching: ${query}`),
        ],
      };
    case 'clarify':
      return {
        ...base,
        tone: 'warning',
        title: `Asked: ${event.question}`,
        lines: event.choices.map((choice) => choice.label),
      };
    case 'proposal':
      return { ...base, title: `Proposed adding a PDF: ${event.title}`, lines: [event.url] };
    case 'network':
      return { ...base, tone: 'warning', title: `Used the network: ${event.host}`, lines: [event.purpose] };
    case 'complete':
      return {
        ...base,
        title: `Run ${event.status}`,
        tone: event.status === 'answered' ? 'success' : event.status === 'failed' ? 'error' : 'warning',
        lines: event.error ? [event.error] : [],
      };
  }
}

export function buildTraceSteps(events: readonly AgentEvent[]): TraceStep[] {
  const first = events[0];
  if (!first) return [];
  const steps: TraceStep[] = [];
  let previousAt = first.at;
  let tokenCount = 0;
  let tokenChars = 0;
  for (const [index, event] of events.entries()) {
    const last = steps.at(-1);
    const waited = Math.max(0, event.at - previousAt);
    previousAt = event.at;
    if (event.type === 'token' && last?.kind === 'token') {
      tokenCount += 1;
      tokenChars += event.text.length;
      last.durationMs = (last.durationMs ?? 0) + waited;
      last.lines = [`${plural(tokenCount, 'token')}, ${plural(tokenChars, 'character')}`];
      continue;
    }
    if (event.type === 'citation' && last?.kind === 'citation') {
      last.lines.push(citationLine(event));
      last.title = `Cited ${plural(last.lines.length, 'page')}`;
      continue;
    }
    const step: TraceStep = {
      key: `${index}-${event.type}`,
      offsetMs: event.at - first.at,
      durationMs:
        event.type === 'tool_result' || event.type === 'complete' ? event.ms : index === 0 ? null : waited,
      ...describe(event),
    };
    if (event.type === 'token') {
      tokenCount = 1;
      tokenChars = event.text.length;
      step.lines = [`1 token, ${plural(tokenChars, 'character')}`];
    }
    if (event.type === 'citation') {
      step.lines = [citationLine(event)];
      step.title = 'Cited 1 page';
    }
    steps.push(step);
  }
  return steps;
}

function citationLine(event: Extract<AgentEvent, { type: 'citation' }>): string {
  const { citation } = event;
  return `[${citation.marker}] ${fileName(citation.path)}, page ${citation.page}`;
}

/** The run's wall time, from its first to its last event, or the engine's own total when it finished. */
export function traceDuration(events: readonly AgentEvent[]): number | null {
  const complete = events.findLast((event) => event.type === 'complete');
  if (complete?.type === 'complete') return complete.ms;
  const first = events[0];
  const last = events.at(-1);
  return first && last ? last.at - first.at : null;
}
