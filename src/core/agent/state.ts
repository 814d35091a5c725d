import type { Requirements } from './constraints';
import { Environment } from './environment';
import { SourceRegistry, type Source } from './sources';

export type DecisionSource = 'model' | 'router' | 'auto' | 'forced';

/** A question and answer from earlier in the conversation. */
export interface HistoryTurn {
  question: string;
  answer: string;
}

export interface TaskRecord {
  tool: string;
  source: DecisionSource;
  ok: boolean;
  ms: number;
  summary: string;
}

export interface ErrorRecord {
  tool: string | null;
  message: string;
  suggestion: string | null;
}

/** What the research steps (references, clarification, coverage) have done in this run. */
export interface ResearchState {
  /** Documents the question was narrowed to (a clarification's answer); null for the whole library. */
  scope: { label: string; documentIds: string[] } | null;
  /** The reading assumed for an ambiguous question nobody clarified; stated with the answer. */
  assumption: string | null;
  /** Opened sources already read for references. */
  readonly scannedSources: Set<number>;
  /** References and pages already followed (the visited set). */
  readonly followed: Set<string>;
  referenceHops: number;
  referenceTokens: number;
  coverageRounds: number;
  /** Parts of the question the last coverage check found missing. */
  uncovered: string[];
}

/** Everything one run knows; tools read it and write their results into it. */
export interface AgentState {
  readonly question: string;
  readonly history: HistoryTurn[];
  readonly requirements: Requirements;
  readonly environment: Environment;
  /** Results moved out of the prompt by summarize: still evidence for validation, no longer shown. */
  readonly hiddenEnvironment: Environment;
  readonly sources: SourceRegistry;
  readonly errors: ErrorRecord[];
  readonly tasks: TaskRecord[];
  /** text_search and visual_search calls so far. */
  searches: number;
  /** Pages visual_search found and visual_interpretation has not read yet. */
  pendingPages: Source[];
  /** Tools found unusable during this run (e.g. no page embedder). */
  readonly disabledTools: Set<string>;
  /** `web`: web search is on for this run (the user's setting). */
  readonly capabilities: {
    see: boolean;
    libraryRoots: string[];
    web: boolean;
    /** What a scoped question searches, in the user's words; absent for the whole library. */
    scope?: string;
  };
  /** Why the last answer draft was rejected; empty once a draft passes. */
  validationProblems: string[];
  /** Set when limits ran out and the answer must state what is missing. */
  forcedReason: string | null;
  iterations: number;
  toolCalls: number;
  answerAttempts: number;
  readonly research: ResearchState;
}

export function createState(init: {
  question: string;
  history: HistoryTurn[];
  requirements: Requirements;
  capabilities: AgentState['capabilities'];
  scope?: ResearchState['scope'];
  assumption?: string | null;
}): AgentState {
  return {
    question: init.question,
    history: init.history,
    requirements: init.requirements,
    environment: new Environment(),
    hiddenEnvironment: new Environment(),
    sources: new SourceRegistry(),
    errors: [],
    tasks: [],
    searches: 0,
    pendingPages: [],
    disabledTools: new Set(),
    capabilities: init.capabilities,
    validationProblems: [],
    forcedReason: null,
    iterations: 0,
    toolCalls: 0,
    answerAttempts: 0,
    research: {
      scope: init.scope ?? null,
      assumption: init.assumption ?? null,
      scannedSources: new Set(),
      followed: new Set(),
      referenceHops: 0,
      referenceTokens: 0,
      coverageRounds: 0,
      uncovered: [],
    },
  };
}
