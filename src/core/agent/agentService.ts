/*
 * Conversations around agent runs: ask starts a run in the background and returns at once; events go
 * to the listeners as they happen and to disk as the run's trace when it ends.
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { AgentEvent, ChatTurn, Conversation, ConversationSummary } from '../../shared/domain/agent';
import type { Scope } from '../../shared/domain/scope';
import { QuireError } from '../../shared/errors';
import { scopedPorts } from './scopedPorts';
import { ConversationStore } from './conversationStore';
import { resolveLimits, type AgentLimits } from './limits';
import type { AgentPorts } from './ports';
import { runAgent, type RunOutcome } from './runAgent';
import type { ClarifyOptions, PlanOptions } from './research/researchSteps';
import type { HistoryTurn } from './state';
import type { AnyTool } from './tools/types';

export interface AgentServiceOptions {
  ports: AgentPorts;
  /** Conversations are kept in <dataDir>/conversations. */
  dataDir: string;
  limits?: Partial<AgentLimits>;
  tools?: AnyTool[];
  now?: () => number;
}

interface ActiveRun {
  controller: AbortController;
  events: AgentEvent[];
  done: Promise<RunOutcome>;
}

const TITLE_CHARS = 80;

export class AgentService {
  private readonly store: ConversationStore;
  private readonly limits: AgentLimits;
  private readonly active = new Map<string, ActiveRun>();
  private readonly listeners = new Set<(event: AgentEvent) => void>();
  private readonly now: () => number;

  constructor(private readonly options: AgentServiceOptions) {
    this.store = new ConversationStore(join(options.dataDir, 'conversations'));
    this.limits = resolveLimits(options.limits);
    this.now = options.now ?? Date.now;
  }

  /** Every event of every run, as it happens; returns the unsubscribe function. */
  onEvent(listener: (event: AgentEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Starts a run. With `clarify` (the default) an ambiguous question pauses the run with a `clarify`
   * event; without it the agent assumes a reading and says which. With `reviewPlan` a compound
   * question pauses with a `plan_review` event until the plan is approved.
   */
  async ask(
    question: string,
    conversationId?: string,
    options: { clarify?: boolean; reviewPlan?: boolean; scope?: Scope | null } = {},
  ): Promise<{ runId: string; conversationId: string }> {
    const trimmed = question.trim();
    if (trimmed === '') throw new QuireError('invalid_input', 'The question is empty.');
    if (trimmed.length > this.limits.maxQuestionChars) {
      throw new QuireError(
        'invalid_input',
        `The question is longer than ${this.limits.maxQuestionChars} characters.`,
      );
    }
    const id = conversationId ?? randomUUID();
    const runId = randomUUID();
    const reviewPlan = options.reviewPlan ?? false;
    let history: HistoryTurn[] = [];
    let scope: Scope | null = null;
    if (options.scope !== undefined) this.checkScope(options.scope);
    const turn: ChatTurn = {
      runId,
      question: trimmed,
      answer: null,
      citations: [],
      insufficiencies: [],
      status: 'running',
      startedAt: this.now(),
      clarification: null,
      planReview: null,
      reviewPlan,
    };
    await this.store.update(id, (current) => {
      if (conversationId && !current)
        throw new QuireError('not_found', 'This conversation no longer exists.');
      const conversation = current ?? {
        id,
        title: trimmed.slice(0, TITLE_CHARS),
        createdAt: this.now(),
        turns: [],
      };
      history = this.historyBefore(conversation.turns, conversation.turns.length);
      // A scope given now replaces the conversation's; none keeps it for this turn too.
      scope = options.scope !== undefined ? options.scope : (conversation.scope ?? null);
      return { ...conversation, scope, turns: [...conversation.turns, turn] };
    });
    this.start(
      id,
      runId,
      trimmed,
      history,
      { ask: options.clarify ?? true },
      { review: reviewPlan },
      [],
      scope,
    );
    return { runId, conversationId: id };
  }

  /**
   * Resumes a paused run with the user's choice (an index into its choices), or with no choice: then
   * the agent assumes a reading and says so. The paused state is read from disk, so this works after a
   * restart.
   */
  clarify(
    conversationId: string,
    runId: string,
    choice: number | null,
  ): Promise<{ runId: string; conversationId: string }> {
    return this.resume(conversationId, runId, (turn) => {
      if (!turn.clarification) return null;
      const answer = choice === null ? null : (turn.clarification.choices[choice] ?? null);
      if (choice !== null && !answer) throw new QuireError('invalid_input', 'There is no such choice.');
      return {
        clarify: { ask: false, answer },
        plan: { review: turn.reviewPlan },
        patch: { clarification: null, chosenReading: answer },
      };
    });
  }

  /** Resumes a run paused on its plan with the sub-questions the user approved (as shown or edited). */
  approvePlan(
    conversationId: string,
    runId: string,
    subQuestions: string[],
  ): Promise<{ runId: string; conversationId: string }> {
    const approved = subQuestions.map((q) => q.trim()).filter(Boolean);
    if (approved.length === 0) throw new QuireError('invalid_input', 'The plan needs at least one question.');
    return this.resume(conversationId, runId, (turn) => {
      if (!turn.planReview) return null;
      const reading = turn.chosenReading;
      return {
        clarify: reading === undefined ? { ask: false } : { ask: false, answer: reading },
        plan: { review: false, approved },
        patch: { planReview: null },
      };
    });
  }

  /** Restarts a paused run from its saved turn; `settle` says how, or null when it waits for something else. */
  private async resume(
    conversationId: string,
    runId: string,
    settle: (
      turn: ChatTurn,
    ) => { clarify: ClarifyOptions; plan: PlanOptions; patch: Partial<ChatTurn> } | null,
  ): Promise<{ runId: string; conversationId: string }> {
    let resumed: {
      question: string;
      history: HistoryTurn[];
      clarify: ClarifyOptions;
      plan: PlanOptions;
      scope: Scope | null;
    } | null = null;
    await this.store.update(conversationId, (current) => {
      if (!current) throw new QuireError('not_found', 'This conversation no longer exists.');
      const at = current.turns.findIndex((t) => t.runId === runId);
      const turn = current.turns[at];
      const settled = turn?.status === 'paused' ? settle(turn) : null;
      if (!turn || !settled) throw new QuireError('invalid_input', 'This run is not waiting for an answer.');
      resumed = {
        question: turn.question,
        history: this.historyBefore(current.turns, at),
        clarify: settled.clarify,
        plan: settled.plan,
        scope: current.scope ?? null,
      };
      const turns = current.turns.map((t) =>
        t.runId === runId ? { ...t, ...settled.patch, status: 'running' as const } : t,
      );
      return { ...current, turns };
    });
    const { question, history, clarify, plan, scope } = resumed!;
    const earlier = (await this.store.getTrace(runId)) ?? [];
    this.start(conversationId, runId, question, history, clarify, plan, earlier, scope);
    return { runId, conversationId };
  }

  /** The answered turns before position `at`, as the run's conversation memory. */
  private historyBefore(turns: ChatTurn[], at: number): HistoryTurn[] {
    return (
      turns
        .slice(0, at)
        // Unverified drafts stay out of the context of the next question.
        .filter((t) => (t.status === 'answered' || t.status === 'declined') && t.answer !== null)
        .slice(-this.limits.historyTurns)
        .map((t) => ({ question: t.question, answer: t.answer ?? '' }))
    );
  }

  private start(
    conversationId: string,
    runId: string,
    question: string,
    history: HistoryTurn[],
    clarify: ClarifyOptions,
    plan: PlanOptions,
    earlier: AgentEvent[] = [],
    scope: Scope | null = null,
  ): void {
    const controller = new AbortController();
    const searched = this.searched(scope);
    const events: AgentEvent[] = [...earlier];
    // The run starts on a later turn of the event loop, so the caller's reply (with the run id) is sent
    // before the first event of the run.
    const done = new Promise((resolve) => setImmediate(resolve))
      .then(() =>
        runAgent({
          runId,
          question,
          history,
          ports: scopedPorts(this.options.ports, scope),
          limits: this.limits,
          tools: this.options.tools,
          signal: controller.signal,
          now: this.now,
          clarify,
          plan,
          onEvent: (event) => {
            events.push(event);
            for (const listener of this.listeners) {
              try {
                listener(event);
              } catch {
                // One broken listener must not starve the others.
              }
            }
          },
        }),
      )
      .then(async (outcome) => {
        await this.store.saveTrace(runId, [...earlier, ...outcome.events]);
        await this.store.update(conversationId, (current) => {
          const conversation = current ?? {
            id: conversationId,
            title: question,
            createdAt: this.now(),
            turns: [],
          };
          const turns = conversation.turns.map((t) =>
            t.runId === runId
              ? {
                  ...t,
                  answer: outcome.answer,
                  citations: outcome.citations,
                  insufficiencies: outcome.insufficiencies,
                  status: outcome.status,
                  clarification: outcome.clarification ?? null,
                  planReview: outcome.planReview ?? null,
                  searched,
                }
              : t,
          );
          return { ...conversation, turns };
        });
        return { ...outcome, searched };
      });
    const entry = { controller, events, done };
    this.active.set(runId, entry);
    void done.finally(() => this.active.delete(runId)).catch(() => undefined);
  }

  /** Throws when a scope names a file that is gone or admits nothing: nothing is asked of nothing. */
  private checkScope(scope: Scope | null): void {
    this.options.ports.resolveScope?.(scope);
  }

  /** What a run searches, in the user's words (with any collection members that are gone). */
  private searched(scope: Scope | null): string {
    try {
      return this.options.ports.resolveScope?.(scope).searched ?? 'the whole library';
    } catch (error) {
      return error instanceof Error ? `nothing: ${error.message}` : 'nothing';
    }
  }

  /** Stops a run at once; an unknown or finished run is left as it is. */
  cancel(runId: string): void {
    this.active.get(runId)?.controller.abort();
  }

  /** Resolves when the run has ended and been saved; null for a run this instance did not start. */
  async waitForRun(runId: string): Promise<RunOutcome | null> {
    const run = this.active.get(runId);
    return run ? run.done : null;
  }

  conversations(): Promise<ConversationSummary[]> {
    return this.store.list();
  }

  async conversation(id: string): Promise<Conversation> {
    const conversation = await this.store.get(id);
    if (!conversation) throw new QuireError('not_found', 'No such conversation.');
    // A turn still marked running but not running here was cut off by a restart.
    const turns = conversation.turns.map((t) =>
      t.status === 'running' && !this.active.has(t.runId) ? { ...t, status: 'failed' as const } : t,
    );
    return { ...conversation, turns };
  }

  async trace(runId: string): Promise<AgentEvent[]> {
    const active = this.active.get(runId);
    if (active) return [...active.events];
    const trace = await this.store.getTrace(runId);
    if (!trace) throw new QuireError('not_found', 'No trace for this run.');
    return trace;
  }

  /** Cancels every run and waits until each has been saved. */
  async dispose(): Promise<void> {
    const runs = [...this.active.values()];
    for (const run of runs) run.controller.abort();
    await Promise.allSettled(runs.map((r) => r.done));
  }
}
