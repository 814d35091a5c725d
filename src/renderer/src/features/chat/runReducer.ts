import type { AgentEvent, ChatTurn, Citation, ClarificationChoice } from '../../../../shared/domain/agent';

export type RunStatus = ChatTurn['status'];

/** What the chat shows for one agent run, folded from its events. */
export interface RunView {
  runId: string;
  /** Streamed tokens until the final event replaces them with the checked answer. */
  answer: string;
  final: boolean;
  citations: Citation[];
  insufficiencies: string[];
  status: RunStatus;
  /** What the agent is doing now, while it runs. */
  activity: string | null;
  error: string | null;
  ms: number | null;
  /** While paused: the question the agent asks before it goes on. */
  clarification: { question: string; choices: ClarificationChoice[] } | null;
  /** While paused for approval: the sub-questions the agent means to research. */
  planReview: { subQuestions: string[] } | null;
  /** PDFs a web search found that the user may add to the library. */
  proposals: Array<{ url: string; title: string }>;
}

export function emptyRun(runId: string): RunView {
  return {
    runId,
    answer: '',
    final: false,
    citations: [],
    insufficiencies: [],
    status: 'running',
    activity: 'Starting',
    error: null,
    ms: null,
    clarification: null,
    planReview: null,
    proposals: [],
  };
}

export function runFromTurn(turn: ChatTurn): RunView {
  return {
    ...emptyRun(turn.runId),
    answer: turn.answer ?? '',
    final: turn.answer !== null,
    citations: turn.citations,
    insufficiencies: turn.insufficiencies,
    status: turn.status,
    activity: turn.status === 'running' ? 'Working' : null,
    clarification: turn.clarification,
    planReview: turn.planReview,
  };
}

function withCitation(citations: readonly Citation[], citation: Citation): Citation[] {
  return [...citations.filter((existing) => existing.marker !== citation.marker), citation].sort(
    (a, b) => a.marker - b.marker,
  );
}

export function applyAgentEvent(current: RunView | undefined, event: AgentEvent): RunView {
  const known = current ?? emptyRun(event.runId);
  // A paused run goes on once its question is answered.
  const run =
    known.status === 'paused' && event.type !== 'complete'
      ? { ...known, status: 'running' as const, clarification: null, planReview: null }
      : known;
  // A finished run only changes if the engine repeats its ending.
  if (run.status !== 'running' && event.type !== 'complete' && event.type !== 'final') return run;
  switch (event.type) {
    case 'plan':
      return { ...run, activity: 'Planning' };
    case 'decision':
      return { ...run, activity: event.tool === 'answer' ? 'Writing the answer' : `Running ${event.tool}` };
    case 'status':
      return { ...run, activity: event.message };
    case 'tool_result':
      return { ...run, activity: event.summary };
    case 'error':
      return { ...run, activity: event.message };
    case 'validation':
      return { ...run, activity: event.passed ? 'Answer checked' : 'Checking the answer' };
    case 'reprompt':
      // The rejected draft is replaced by the revision that streams next.
      return { ...run, answer: '', citations: [], activity: 'Revising the answer' };
    case 'token':
      return run.final ? run : { ...run, answer: run.answer + event.text, activity: 'Writing the answer' };
    case 'citation':
      return { ...run, citations: withCitation(run.citations, event.citation) };
    case 'final':
      return {
        ...run,
        answer: event.answer,
        final: true,
        citations: [...event.citations].sort((a, b) => a.marker - b.marker),
        insufficiencies: event.insufficiencies,
      };
    case 'reference':
      return { ...run, activity: `Following "${event.reference}"` };
    case 'coverage':
      return {
        ...run,
        activity: event.missing.length > 0 ? 'Searching for what the draft missed' : run.activity,
      };
    case 'network':
      return { ...run, activity: `Searching the web (${event.host})` };
    case 'proposal':
      return run.proposals.some((p) => p.url === event.url)
        ? run
        : { ...run, proposals: [...run.proposals, { url: event.url, title: event.title }] };
    case 'clarify':
      return { ...run, clarification: { question: event.question, choices: event.choices }, activity: null };
    case 'plan_review':
      return { ...run, planReview: { subQuestions: event.subQuestions }, activity: null };
    case 'complete':
      return { ...run, status: event.status, error: event.error, ms: event.ms, activity: null };
  }
}
