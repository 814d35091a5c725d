/*
 * The research steps around the decision loop: the clarifying question and the plan review before it
 * starts, and the coverage check after each draft that passes the validation gate.
 */
import type { ClarificationChoice } from '../../../shared/domain/agent';
import type { EventSink } from '../events';
import { findMarkers } from '../markers';
import type { AgentLimits } from '../limits';
import type { AgentPorts } from '../ports';
import type { AgentState } from '../state';
import { textSearch } from '../tools/textSearch';
import {
  describeAssumption,
  findAmbiguity,
  genericAmbiguity,
  mentionsGenericDocument,
  type Clarification,
} from './ambiguity';
import { subQuestionsOf } from '../../retrieval/queryForms';
import { checkCoverage, targetedQuery } from './coverage';

export interface ClarifyOptions {
  /** Ask the user (pause the run) when the question is ambiguous; otherwise assume a reading and say so. */
  ask: boolean;
  /** The user's answer to an earlier question of this run; null when they declined to choose. */
  answer?: ClarificationChoice | null;
}

export interface PlanOptions {
  /** Show a compound question's sub-questions and pause until the user approves or edits them. */
  review: boolean;
  /** The sub-questions the user approved (as shown or edited): researched before the loop starts. */
  approved?: string[];
}

/** Hits looked at to tell whether "the report" could mean several documents. */
const AMBIGUITY_HITS = 10;
/** Missing parts searched per coverage round. */
const SEARCHES_PER_ROUND = 2;

/**
 * Settles the question's scope before the loop: the user's answer, else a question to ask (returned,
 * and the run pauses), else an assumed reading recorded on the state.
 */
export async function settleReading(
  state: AgentState,
  ports: AgentPorts,
  options: ClarifyOptions | undefined,
  sink: EventSink,
): Promise<Clarification | null> {
  if (state.requirements.aboutFiles) return null;
  if (options?.answer) {
    state.research.scope = { label: options.answer.label, documentIds: options.answer.documentIds };
    sink.emit({ type: 'status', message: `Searching ${options.answer.label}, as chosen.` });
    return null;
  }
  const library = await ports.libraryDocuments();
  // "The report" costs one search, and only when the question says it.
  const ambiguity =
    findAmbiguity(state.question, library) ??
    (mentionsGenericDocument(state.question)
      ? genericAmbiguity(
          state.question,
          await ports.searchChunks(state.question, { k: AMBIGUITY_HITS }),
          library,
        )
      : null);
  if (!ambiguity) return null;
  if (options?.ask && options.answer === undefined) {
    sink.emit({ type: 'clarify', question: ambiguity.question, choices: ambiguity.choices });
    return ambiguity;
  }
  const picked = ambiguity.choices[0]!;
  state.research.scope = { label: picked.label, documentIds: picked.documentIds };
  state.research.assumption = describeAssumption(ambiguity, picked);
  sink.emit({ type: 'status', message: state.research.assumption });
  return null;
}

/**
 * Settles the research plan before the loop: approved sub-questions are each searched (visible in the
 * trace); with review on, a compound question's sub-questions are returned (and the run pauses) for
 * approval. A question with one part has no plan to approve.
 */
export async function settlePlan(
  state: AgentState,
  options: PlanOptions | undefined,
  sink: EventSink,
  search: (inputs: { query: string; k: number; mode: 'hybrid' }) => Promise<void>,
): Promise<{ subQuestions: string[] } | null> {
  if (state.requirements.aboutFiles || !options) return null;
  if (options.approved) {
    sink.emit({
      type: 'status',
      message: `Researching the approved plan: ${options.approved.map((q) => `"${q}"`).join(', ')}.`,
    });
    for (const query of options.approved) await search({ query, k: 5, mode: 'hybrid' });
    return null;
  }
  const subQuestions = options.review ? subQuestionsOf(state.question) : [];
  if (subQuestions.length < 2) return null;
  sink.emit({ type: 'plan_review', subQuestions });
  return { subQuestions };
}

/**
 * Scores the draft's coverage of the question and, while rounds are left, runs targeted searches for
 * the missing parts. True when searches were added and the answer should be drafted again.
 */
export async function coverageRound(
  state: AgentState,
  draft: string,
  limits: AgentLimits,
  sink: EventSink,
  search: (inputs: { query: string; k: number; mode: 'hybrid' }) => Promise<void>,
  budgetLeft: () => boolean,
): Promise<boolean> {
  if (state.requirements.aboutFiles || limits.coverageRounds === 0) return false;
  const cited = findMarkers(draft).flatMap((marker) =>
    marker.numbers.map((n) => state.sources.get(n)?.text ?? ''),
  );
  const report = checkCoverage(state.question, draft, cited);
  const round = state.research.coverageRounds;
  const canSearch = round < limits.coverageRounds && budgetLeft();
  const searches = canSearch
    ? report.missing.slice(0, SEARCHES_PER_ROUND).map((part) => targetedQuery(state.question, part))
    : [];
  state.research.uncovered = report.missing.map((part) => part.text);
  if (report.missing.length === 0 && round === 0) return false;
  sink.emit({
    type: 'coverage',
    round,
    covered: report.covered,
    missing: state.research.uncovered,
    searches,
  });
  if (searches.length === 0) return false;
  state.research.coverageRounds++;
  for (const query of searches) await search({ query, k: 5, mode: 'hybrid' });
  return true;
}

/** What the final answer states besides the validation problems: the assumed reading, the gaps. */
export function researchInsufficiencies(state: AgentState): string[] {
  return [
    ...(state.research.assumption ? [state.research.assumption] : []),
    ...(state.research.uncovered.length > 0
      ? [`The sources found do not cover: ${state.research.uncovered.join(', ')}.`]
      : []),
  ];
}

export { textSearch as coverageSearchTool };
