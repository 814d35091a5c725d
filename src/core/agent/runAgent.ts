/*
 * The bounded decision loop: decide, run a tool, repeat, until the model answers or a limit is hit;
 * every answer draft goes through the validation gate, and failing drafts are reprompted within budget.
 */
import { toErrorInfo } from '../../shared/errors';
import { AgentRun, TimeLimitReached } from './agentRun';
import type { RunAgentOptions, RunOutcome } from './runTypes';

export type { RunAgentOptions, RunOutcome } from './runTypes';

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
