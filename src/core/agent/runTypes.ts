/* What one agent run takes and gives back; apart from runAgent so the run's parts can name them too. */
import type { AgentEvent, Citation, RunStatus } from '../../shared/domain/agent';
import type { AgentLimits } from './limits';
import type { AgentPorts } from './ports';
import type { Clarification } from './research/ambiguity';
import type { ClarifyOptions, PlanOptions } from './research/researchSteps';
import type { HistoryTurn } from './state';
import type { AnyTool } from './tools/types';

export interface RunAgentOptions {
  runId: string;
  question: string;
  history?: HistoryTurn[];
  ports: AgentPorts;
  limits?: Partial<AgentLimits>;
  tools?: AnyTool[];
  signal?: AbortSignal;
  onEvent?: (event: AgentEvent) => void;
  now?: () => number;
  /** How an ambiguous question is handled; without it the agent assumes a reading and says so. */
  clarify?: ClarifyOptions;
  /** Whether a compound question's plan is shown for approval first; without it the run researches at once. */
  plan?: PlanOptions;
}

export interface RunOutcome {
  /**
   * `paused`: the run asks the user `clarification`, or shows `planReview` for approval, and resumes
   * with their answer.
   */
  status: RunStatus;
  clarification?: Clarification | null;
  planReview?: { subQuestions: string[] } | null;
  answer: string | null;
  citations: Citation[];
  insufficiencies: string[];
  error: string | null;
  events: AgentEvent[];
  /** What the run searched, in the user's words. */
  searched?: string;
}
