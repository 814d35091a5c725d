import type { AgentEvent } from '../../../../shared/domain/agent';
import { fileName, plural } from '../../lib/format';
import { describeInputs, toolSentence } from './toolSentences';

export type StepTone = 'normal' | 'success' | 'warning' | 'error';

/**
 * One row of the timeline, as one human sentence. A tool's decision, its results and its errors fold
 * into one step; so do runs of tokens (the answer being written) and of citations.
 */
export interface TraceStep {
  key: string;
  /** The type of the event that opened the step. */
  kind: AgentEvent['type'];
  /** The tool the step ran, if it is a tool call. */
  tool: string | null;
  title: string;
  /** Milliseconds from the run's first event. */
  offsetMs: number;
  /** How long the step took: the tool's own timing, else the wait since the previous step. */
  durationMs: number | null;
  tone: StepTone;
  /** True while a tool step waits for its results. */
  running: boolean;
  reasoning: string | null;
  inputs: Array<{ label: string; value: string }>;
  lines: string[];
}

const CHOSEN_BY: Record<Extract<AgentEvent, { type: 'decision' }>['source'], string | null> = {
  model: null,
  router: 'Chosen by the keyword router (the model gave no usable decision).',
  auto: 'Run automatically.',
  forced: 'Required before the answer.',
};

type Described = Omit<TraceStep, 'key' | 'offsetMs' | 'durationMs'>;

function describe(event: AgentEvent): Described {
  const base: Described = {
    kind: event.type,
    tool: null,
    title: '',
    tone: 'normal',
    running: false,
    reasoning: null,
    inputs: [],
    lines: [],
  };
  switch (event.type) {
    case 'plan':
      return {
        ...base,
        title: event.requirements.length > 0 ? 'Worked out what a good answer needs' : 'Read the question',
        lines: event.requirements,
      };
    case 'decision': {
      const chosenBy = CHOSEN_BY[event.source];
      return {
        ...base,
        tool: event.tool,
        title: toolSentence(event.tool, event.inputs, 0).running,
        running: event.tool !== 'answer',
        reasoning: event.reasoning || null,
        inputs: describeInputs(event.inputs),
        lines: chosenBy ? [chosenBy] : [],
      };
    }
    case 'status':
      return { ...base, title: event.message };
    case 'tool_result':
      return {
        ...base,
        tool: event.tool,
        title: toolSentence(event.tool, {}, event.items).done,
        lines: event.summary ? [event.summary] : [],
      };
    case 'error':
      return {
        ...base,
        tone: 'error',
        title: event.message,
        // An error's suggestion is advice to the model ("Use text_search…"), not to the reader.
        lines: [],
      };
    case 'validation':
      return {
        ...base,
        tone: event.passed ? 'success' : 'warning',
        title: event.passed
          ? 'Checked the answer against the sources: it holds'
          : `Checked the answer against the sources: ${plural(event.problems.length, 'problem')}`,
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
      return { ...base, title: 'Cited 1 page', lines: [citationLine(event)] };
    case 'final':
      return {
        ...base,
        title: `Answered with ${plural(event.citations.length, 'citation')}`,
        tone: event.insufficiencies.length > 0 ? 'warning' : 'normal',
        lines: event.insufficiencies.map((gap) => `Not covered: ${gap}`),
      };
    case 'reference':
      return {
        ...base,
        tone: event.to ? 'normal' : 'warning',
        title: event.to
          ? `Followed “${event.reference}” to page ${event.to.page}${event.to.documentId === event.from.documentId ? '' : ` of ${fileName(event.to.path)}`}`
          : `Could not follow “${event.reference}”`,
        lines: [
          `From ${fileName(event.from.path)}, page ${event.from.page} (depth ${event.depth})`,
          ...(event.to ? [`Kept ${plural(event.kept, 'passage')}`] : []),
          ...(event.note ? [event.note] : []),
        ],
      };
    case 'coverage':
      return {
        ...base,
        tone: event.missing.length > 0 ? 'warning' : 'success',
        title:
          event.missing.length > 0
            ? `Checked coverage: ${event.missing.length} of ${event.covered.length + event.missing.length} parts missing`
            : `Checked coverage: all ${plural(event.covered.length, 'part')} covered`,
        lines: [
          ...(event.missing.length > 0 ? [`Missing: ${event.missing.join(', ')}`] : []),
          ...event.searches.map((query) => `Searching again for “${query}”`),
        ],
      };
    case 'clarify':
      return {
        ...base,
        tone: 'warning',
        title: `Asked you: ${event.question}`,
        lines: event.choices.map((choice) => choice.label),
      };
    case 'plan_review':
      return {
        ...base,
        tone: 'warning',
        title: `Asked you to approve a plan of ${plural(event.subQuestions.length, 'question')}`,
        lines: event.subQuestions,
      };
    case 'proposal':
      return { ...base, title: `Found a PDF on the web: ${event.title}`, lines: [event.url] };
    case 'network':
      return { ...base, tone: 'warning', title: `Contacted ${event.host}`, lines: [event.purpose] };
    case 'complete':
      return {
        ...base,
        title: COMPLETE_TITLES[event.status] ?? `Finished: ${event.status}`,
        tone:
          event.status === 'answered'
            ? 'success'
            : event.status === 'failed'
              ? 'error'
              : event.status === 'declined'
                ? 'normal'
                : 'warning',
        lines: event.error ? [event.error] : [],
      };
  }
}

const COMPLETE_TITLES: Record<string, string> = {
  answered: 'Done',
  unverified: 'Done, but the answer did not pass the check',
  declined: 'Done: the documents do not cover this',
  cancelled: 'Stopped',
  failed: 'The run failed',
  paused: 'Waiting for your choice',
};

/** Folds an event into the step before it when both belong to one thing the agent did. */
function foldInto(
  last: TraceStep | undefined,
  event: AgentEvent,
  waited: number,
  counts: FoldCounts,
): boolean {
  if (!last) return false;
  const toolStep = last.kind === 'decision' && last.tool !== null;
  if (event.type === 'tool_result' && toolStep && last.tool === event.tool) {
    counts.items += event.items;
    last.title = toolSentence(event.tool, counts.decisionInputs ?? {}, counts.items).done;
    last.durationMs = event.ms;
    last.running = false;
    if (event.summary) last.lines.push(event.summary);
    return true;
  }
  if (event.type === 'error' && toolStep && last.tool === event.tool && last.running) {
    last.title = `${last.title} failed: ${event.message}`;
    last.tone = 'error';
    last.running = false;
    last.durationMs = (last.durationMs ?? 0) + waited;
    return true;
  }
  const writing = (last.kind === 'decision' && last.tool === 'answer') || last.kind === 'token';
  if (event.type === 'token' && writing) {
    counts.tokens += 1;
    counts.characters += event.text.length;
    last.title = 'Wrote the answer';
    last.durationMs = (last.durationMs ?? 0) + waited;
    last.lines = [
      ...last.lines.filter((line) => !line.startsWith('Length:')),
      `Length: ${plural(counts.tokens, 'token')}, ${plural(counts.characters, 'character')}`,
    ];
    return true;
  }
  if (event.type === 'citation' && last.kind === 'citation') {
    last.lines.push(citationLine(event));
    last.title = `Cited ${plural(last.lines.length, 'page')}`;
    return true;
  }
  return false;
}

interface FoldCounts {
  items: number;
  tokens: number;
  characters: number;
  decisionInputs: Record<string, unknown> | null;
}

export function buildTraceSteps(events: readonly AgentEvent[]): TraceStep[] {
  const first = events[0];
  if (!first) return [];
  const steps: TraceStep[] = [];
  const counts: FoldCounts = { items: 0, tokens: 0, characters: 0, decisionInputs: null };
  let previousAt = first.at;
  for (const [index, event] of events.entries()) {
    const waited = Math.max(0, event.at - previousAt);
    previousAt = event.at;
    if (foldInto(steps.at(-1), event, waited, counts)) continue;
    const step: TraceStep = {
      key: `${index}-${event.type}`,
      offsetMs: event.at - first.at,
      durationMs:
        event.type === 'tool_result' || event.type === 'complete' ? event.ms : index === 0 ? null : waited,
      ...describe(event),
    };
    if (event.type === 'decision') {
      counts.items = 0;
      counts.decisionInputs = event.inputs;
      // The decision itself is quick; the step's time is the tool's, once its results come.
      step.durationMs = null;
    }
    if (event.type === 'token') {
      counts.tokens = 1;
      counts.characters = event.text.length;
      step.lines = [`Length: 1 token, ${plural(counts.characters, 'character')}`];
    }
    steps.push(step);
  }
  // Only the newest tool step can still be running.
  for (const step of steps.slice(0, -1)) step.running = false;
  return steps;
}

function citationLine(event: Extract<AgentEvent, { type: 'citation' }>): string {
  const { citation } = event;
  return `[${citation.marker}] ${fileName(citation.path)}, page ${citation.page}`;
}

/** The sentence that says what the agent is doing now, while a run goes on. */
export function currentStepSentence(steps: readonly TraceStep[]): string | null {
  const last = steps.at(-1);
  if (!last) return null;
  if (last.kind === 'token' || last.tool === 'answer') return 'Writing the answer…';
  return last.running ? `${last.title}…` : last.title;
}

/** The run's wall time, from its first to its last event, or the engine's own total when it finished. */
export function traceDuration(events: readonly AgentEvent[]): number | null {
  const complete = events.findLast((event) => event.type === 'complete');
  if (complete?.type === 'complete') return complete.ms;
  const first = events[0];
  const last = events.at(-1);
  return first && last ? last.at - first.at : null;
}
