/*
 * The bounded decision loop: decide, run a tool, repeat, until the model answers or a limit is hit;
 * every answer draft goes through the validation gate, and failing drafts are reprompted within budget.
 */
import type { AgentEvent, Citation } from '../../shared/domain/agent';
import { toErrorInfo } from '../../shared/errors';
import { AgentRun, TimeLimitReached } from './agentRun';
import type { AgentLimits } from './limits';
import type { AgentPorts } from './ports';
import type { Clarification } from './research/ambiguity';
import type { ClarifyOptions } from './research/researchSteps';
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
}

export interface RunOutcome {
  /** `paused`: the run asks the user `clarification` and resumes with their answer. */
  status: 'answered' | 'cancelled' | 'failed' | 'paused';
  clarification?: Clarification | null;
  answer: string | null;
  citations: Citation[];
  insufficiencies: string[];
  error: string | null;
  events: AgentEvent[];
}

/**
 * Runs the agent once. Failures, time-outs and cancellation end in a `complete` event; only invalid
 * limits throw (a configuration error, before anything starts).
 */
export async function runAgent(options: RunAgentOptions): Promise<RunOutcome> {
  const deadline = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, deadline.signal]) : deadline.signal;
  const run = new AgentRun(options, signal);
  const timer = setTimeout(() => deadline.abort(new TimeLimitReached('time limit')), run.limits.maxWallMs);
  const now = options.now ?? Date.now;
  const started = now();
  const complete = (outcome: Omit<RunOutcome, 'events'>): RunOutcome => {
    const status = outcome.status;
    run.sink.emit({ type: 'complete', status, ms: Math.max(0, now() - started), error: outcome.error });
    return { ...outcome, events: run.events };
  };
  try {
    signal.throwIfAborted();
    return complete(await run.execute());
  } catch (error) {
    if (options.signal?.aborted) {
      return complete({ status: 'cancelled', answer: null, citations: [], insufficiencies: [], error: null });
    }
    if (deadline.signal.aborted) return complete(run.finishAfterTimeout());
    const info = toErrorInfo(error);
    run.sink.emit({ type: 'error', tool: null, message: info.message, suggestion: null });
    return complete({
      status: 'failed',
      answer: null,
      citations: [],
      insufficiencies: [],
      error: info.message,
    });
  } finally {
    clearTimeout(timer);
  }
}
