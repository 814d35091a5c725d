/* One run of the decision loop (see runAgent.ts): its state, its steps and its ending. */
import type { AgentEvent } from '../../shared/domain/agent';
import {
  coverageRound,
  coverageSearchTool,
  researchInsufficiencies,
  settlePlan,
  settleReading,
} from './research/researchSteps';
import { QuireError, isAbortError, toErrorInfo } from '../../shared/errors';
import type { ChatModel } from '../models/types';
import { analyzeQuestion, describeRequirements } from './constraints';
import { abortable, abortableIterate } from '../common/abortable';
import { parseDecision, decisionSchema, type Decision } from './decision';
import { EventSink } from './events';
import { groundCitations } from './grounding';
import { resolveLimits, type AgentLimits } from './limits';
import { decisionMessages } from './prompts';
import { plannedStep } from './router';
import { createState, type AgentState, type DecisionSource } from './state';
import { defaultTools } from './tools';
import { NO_ANSWER_MODEL } from './tools/answer';
import { realRoots } from '../library/pathPolicy';
import type { AnyTool, ToolContext } from './tools/types';
import { validateAnswer, type ValidationResult } from './validation';
import { describeRecitation } from './claimCheck';
import { answerStatus } from './answerStatus';
import type { RunAgentOptions, RunOutcome } from './runTypes';

/** Consecutive unusable decisions after which the run stops asking the model and follows the plan. */
const MAX_BAD_DECISIONS = 2;
/** Share of the wall-time limit after which the run stops exploring and answers. */
const ANSWER_RESERVE = 0.75;

export class TimeLimitReached extends Error {}

export class AgentRun {
  readonly sink: EventSink;
  readonly limits: AgentLimits;
  private readonly tools: AnyTool[];
  private readonly now: () => number;
  private readonly startedAt: number;
  private badDecisions = 0;
  private lastDraft = '';
  private current: AgentState | null = null;

  constructor(
    private readonly options: RunAgentOptions,
    private readonly signal: AbortSignal,
  ) {
    this.now = options.now ?? Date.now;
    this.startedAt = this.now();
    this.limits = resolveLimits(options.limits);
    this.tools = options.tools ?? defaultTools();
    this.sink = new EventSink(options.runId, options.onEvent, this.now);
  }

  get events(): AgentEvent[] {
    return this.sink.events;
  }

  private get state(): AgentState {
    if (!this.current) throw new Error('The run has not started.');
    return this.current;
  }

  async execute(): Promise<Omit<RunOutcome, 'events'>> {
    const { question, ports } = this.options;
    if (question.length > this.limits.maxQuestionChars) {
      throw new QuireError(
        'invalid_input',
        `The question is longer than ${this.limits.maxQuestionChars} characters.`,
      );
    }
    const requirements = analyzeQuestion(question);
    this.sink.emit({ type: 'plan', requirements: describeRequirements(requirements) });
    const [roots, seeModel, decideModel] = await abortable(
      Promise.all([
        ports.libraryRoots().then(realRoots),
        ports.models.chatModel('see'),
        ports.models.chatModel('decide'),
      ]),
      this.signal,
    );
    // With nothing to write the answer, searching first would only end in the same failure, later.
    if (decideModel === null && (await abortable(ports.models.chatModel('answer'), this.signal)) === null) {
      throw new QuireError('model_unavailable', NO_ANSWER_MODEL);
    }
    this.current = createState({
      question,
      history: (this.options.history ?? []).slice(-this.limits.historyTurns),
      requirements,
      capabilities: {
        see: seeModel !== null,
        libraryRoots: roots,
        web: (ports.webSearch?.() ?? null) !== null,
        ...(ports.scopeLabel ? { scope: ports.scopeLabel() } : {}),
      },
    });
    const clarification = await settleReading(this.state, ports, this.options.clarify, this.sink);
    if (clarification) return this.pause({ clarification });
    const planReview = await settlePlan(this.state, this.options.plan, this.sink, this.autoSearch);
    if (planReview) return this.pause({ planReview });
    return this.loop(decideModel);
  }

  private pause(asked: Pick<RunOutcome, 'clarification' | 'planReview'>): Omit<RunOutcome, 'events'> {
    return { status: 'paused', ...asked, answer: null, citations: [], insufficiencies: [], error: null };
  }

  /** A search the run makes on its own (an approved plan's part, a coverage gap), shown in the trace. */
  private readonly autoSearch = (inputs: { query: string; k: number; mode: 'hybrid' }) =>
    this.runTool(coverageSearchTool, inputs, 'auto');

  /** The coverage check after a passing draft; true when it searched more and the answer is redrafted. */
  private recheckCoverage(): Promise<boolean> {
    return coverageRound(
      this.state,
      this.lastDraft,
      this.limits,
      this.sink,
      this.autoSearch,
      () => !this.budgetSpent(),
    );
  }

  private async loop(decideModel: ChatModel | null): Promise<Omit<RunOutcome, 'events'>> {
    const state = this.state;
    while (!this.budgetSpent()) {
      await this.runAutoTriggers();
      if (this.budgetSpent()) break;
      const decision = await this.decide(decideModel);
      if (!decision) continue;
      if (decision.tool.ends) {
        const verdict = await this.draftAnswer(decision.tool, decision.inputs);
        if (verdict.passed && (await this.recheckCoverage())) continue;
        if (verdict.passed) return this.finish(verdict);
        if (!this.repromptOrStop(verdict)) return this.finish(verdict);
        continue;
      }
      await this.runTool(decision.tool, decision.inputs, decision.source);
      if (decision.end) return this.answerPhase('auto');
    }
    state.forcedReason = this.limitDescription();
    this.sink.emit({ type: 'status', message: `${state.forcedReason} Answering with what was found.` });
    return this.answerPhase('forced');
  }

  private budgetSpent(): boolean {
    const s = this.state;
    return (
      s.iterations >= this.limits.maxIterations ||
      s.toolCalls >= this.limits.maxToolCalls ||
      this.now() - this.startedAt >= this.limits.maxWallMs * ANSWER_RESERVE
    );
  }

  private limitDescription(): string {
    const s = this.state;
    if (s.iterations >= this.limits.maxIterations)
      return `The step limit (${this.limits.maxIterations}) was reached.`;
    if (s.toolCalls >= this.limits.maxToolCalls)
      return `The tool call limit (${this.limits.maxToolCalls}) was reached.`;
    return 'Most of the time limit was used.';
  }

  /** Drafts answers without further tools until one passes the gate or the reprompt budget is gone. */
  private async answerPhase(source: DecisionSource): Promise<Omit<RunOutcome, 'events'>> {
    const tool = this.tools.find((t) => t.ends);
    if (!tool) throw new QuireError('internal', 'No answering tool is configured.');
    for (;;) {
      // A run stopped by its limits answers with what it has; one that chose to end may still open.
      if (source !== 'forced') await this.openRequiredSources();
      const inputs = tool.defaultInputs(this.state);
      this.emitDecision({
        tool,
        inputs,
        reasoning: 'Write the answer from what was found.',
        end: true,
        source,
      });
      const verdict = await this.draftAnswer(tool, inputs);
      if (verdict.passed && (await this.recheckCoverage())) continue;
      if (verdict.passed) return this.finish(verdict);
      if (!this.repromptOrStop(verdict)) return this.finish(verdict);
    }
  }

  /**
   * Opens the sources the question requires before a draft the model did not plan, since a draft
   * alone cannot open them: a model that answers straight after a search would fail the gate each time.
   */
  private async openRequiredSources(): Promise<void> {
    const open = this.tools.find((t) => t.name === 'open_citation');
    if (!open) return;
    while (
      this.state.sources.openedCount() < this.state.requirements.minOpened &&
      this.state.sources.all().some((s) => !s.opened) &&
      this.state.toolCalls < this.limits.maxToolCalls &&
      this.usable(open)
    ) {
      const inputs = open.defaultInputs(this.state);
      this.emitDecision({
        tool: open,
        inputs,
        reasoning: 'Open the source the answer will cite.',
        end: false,
        source: 'auto',
      });
      const before = this.state.sources.openedCount();
      await this.runTool(open, inputs, 'auto');
      if (this.state.sources.openedCount() === before) return;
    }
  }

  /** Records the problems for the next draft; false when no reprompt is left. */
  private repromptOrStop(verdict: ValidationResult): boolean {
    const remaining = this.limits.maxReprompts - (this.state.answerAttempts - 1);
    if (remaining <= 0) return false;
    this.state.validationProblems = verdict.problems;
    this.sink.emit({ type: 'reprompt', problems: verdict.problems, remaining: remaining - 1 });
    return true;
  }

  private async runAutoTriggers(): Promise<void> {
    for (const tool of this.tools) {
      if (this.budgetSpent()) return;
      if (!tool.runIfTrue?.(this.state, this.limits) || !this.usable(tool)) continue;
      const inputs = tool.defaultInputs(this.state);
      this.emitDecision({
        tool,
        inputs,
        reasoning: `${tool.name} triggered automatically.`,
        end: false,
        source: 'auto',
      });
      await this.runTool(tool, inputs, 'auto');
    }
  }

  private usable(tool: AnyTool): boolean {
    return !this.state.disabledTools.has(tool.name) && tool.isAvailable(this.state);
  }

  private emitDecision(d: Decision & { source: DecisionSource }): void {
    this.sink.emit({
      type: 'decision',
      tool: d.tool.name,
      inputs: (d.inputs ?? {}) as Record<string, unknown>,
      reasoning: d.reasoning,
      end: d.end,
      source: d.source,
    });
  }

  /** One decision: the model's, else the router's on the first step or the plan's after repeated failures. */
  private async decide(model: ChatModel | null): Promise<(Decision & { source: DecisionSource }) | null> {
    const state = this.state;
    const available = this.tools.filter((t) => this.usable(t));
    state.iterations++;
    const firstStep = state.tasks.length === 0 && state.answerAttempts === 0;
    let decision: (Decision & { source: DecisionSource }) | null = null;
    if (model && this.badDecisions < MAX_BAD_DECISIONS) {
      const parsed = await this.askModel(model, available);
      if (parsed.ok) {
        this.badDecisions = 0;
        decision = { ...parsed.decision, source: 'model' };
      } else {
        this.badDecisions++;
        this.recordError(null, parsed.problem, 'Reply with one JSON object that follows the schema.');
      }
    }
    if (!decision && (firstStep || !model || this.badDecisions >= MAX_BAD_DECISIONS)) {
      decision = plannedStep(this.state, available);
    }
    if (decision) this.emitDecision(decision);
    return decision;
  }

  private async askModel(model: ChatModel, available: AnyTool[]) {
    try {
      const response = await abortable(
        model.chat({
          messages: decisionMessages(this.state, available, this.limits),
          jsonSchema: decisionSchema(available),
          maxTokens: this.limits.decisionMaxTokens,
          temperature: 0,
          signal: this.signal,
        }),
        this.signal,
      );
      return parseDecision(response.text, available);
    } catch (error) {
      if (this.signal.aborted || isAbortError(error)) throw error;
      return { ok: false as const, problem: `The decision model failed: ${toErrorInfo(error).message}` };
    }
  }

  private context(): ToolContext {
    return {
      state: this.state,
      ports: this.options.ports,
      limits: this.limits,
      signal: this.signal,
      emitToken: (text) =>
        this.sink.emit({ type: 'token', text, attempt: Math.max(0, this.state.answerAttempts - 1) }),
      emit: (event) => this.sink.emit(event),
    };
  }

  private async runTool(tool: AnyTool, inputs: unknown, source: DecisionSource): Promise<void> {
    const state = this.state;
    state.toolCalls++;
    const started = this.now();
    let ok = true;
    const summaries: string[] = [];
    try {
      for await (const item of abortableIterate(tool.run(inputs, this.context()), this.signal)) {
        this.signal.throwIfAborted();
        if (item.type === 'result') {
          state.environment.add(tool.name, item.name, item.text, item.items);
          summaries.push(item.summary);
          this.sink.emit({
            type: 'tool_result',
            tool: tool.name,
            name: item.name,
            summary: item.summary,
            items: item.items,
            ms: this.now() - started,
          });
        } else {
          ok = false;
          summaries.push(item.message);
          this.recordError(tool.name, item.message, item.suggestion);
        }
      }
    } catch (error) {
      if (this.signal.aborted || isAbortError(error)) throw error;
      ok = false;
      const failure = describeFailure(tool, error);
      summaries.push(failure.message);
      this.recordError(tool.name, failure.message, failure.suggestion);
    }
    state.tasks.push({
      tool: tool.name,
      source,
      ok,
      ms: this.now() - started,
      summary: summaries.join('; '),
    });
  }

  private recordError(tool: string | null, message: string, suggestion: string | null): void {
    this.state.errors.push({ tool, message, suggestion });
    this.sink.emit({ type: 'error', tool, message, suggestion });
  }

  private async draftAnswer(tool: AnyTool, inputs: unknown): Promise<ValidationResult> {
    const state = this.state;
    state.answerAttempts++;
    const started = this.now();
    let draft = '';
    for await (const item of abortableIterate(tool.run(inputs, this.context()), this.signal)) {
      if (item.type === 'result') draft = item.text;
      else this.recordError(tool.name, item.message, item.suggestion);
    }
    this.lastDraft = draft;
    const otherEvidence = [...state.environment.all(), ...state.hiddenEnvironment.all()]
      .map((e) => e.text)
      .join('\n');
    const verdict = validateAnswer({
      answer: draft,
      question: state.question,
      requirements: state.requirements,
      sources: state.sources,
      otherEvidence,
      searches: state.searches,
      followUp: state.history.length > 0,
    });
    state.tasks.push({
      tool: tool.name,
      source: 'model',
      ok: verdict.passed,
      ms: this.now() - started,
      summary: verdict.passed
        ? 'answer passed validation'
        : `answer rejected: ${verdict.problems.length} problem(s)`,
    });
    this.sink.emit({ type: 'validation', passed: verdict.passed, problems: verdict.problems });
    // The re-cited draft is the one kept and shown; the trace says which sentence moved where.
    this.lastDraft = verdict.answer;
    for (const recitation of verdict.recited) {
      this.sink.emit({ type: 'status', message: describeRecitation(recitation, state.sources) });
    }
    return verdict;
  }

  /** Grounds the last draft and reports it with its status; a failed check's problems are shown. */
  finish(verdict: ValidationResult): Omit<RunOutcome, 'events'> {
    const { passed } = verdict;
    const grounded = groundCitations(this.lastDraft, this.state.sources);
    const insufficiencies = [
      ...(this.state.forcedReason ? [this.state.forcedReason] : []),
      ...researchInsufficiencies(this.state),
      ...(passed ? [] : verdict.problems),
    ];
    const answer = grounded.text || 'No answer could be written from the documents.';
    for (const citation of grounded.citations) this.sink.emit({ type: 'citation', citation });
    const { aboutFiles } = this.state.requirements;
    const status = answerStatus({ text: answer, passed, citations: grounded.citations.length, aboutFiles });
    this.sink.emit({ type: 'final', answer, citations: grounded.citations, insufficiencies });
    return { status, answer, citations: grounded.citations, insufficiencies, error: null };
  }

  /** What to show when the wall-time limit cut the run short. */
  finishAfterTimeout(): Omit<RunOutcome, 'events'> {
    const reason = `The time limit (${Math.round(this.limits.maxWallMs / 1000)} s) ran out.`;
    if (!this.current)
      return { status: 'failed', answer: null, citations: [], insufficiencies: [reason], error: reason };
    const grounded = groundCitations(this.lastDraft, this.state.sources);
    const answer = grounded.text || `${reason} No answer was written.`;
    const { citations } = grounded;
    this.sink.emit({ type: 'final', answer, citations, insufficiencies: [reason] });
    return { status: 'failed', answer, citations, insufficiencies: [reason], error: reason };
  }
}

function describeFailure(tool: AnyTool, error: unknown): { message: string; suggestion: string } {
  const info = toErrorInfo(error);
  const details = info.details as { suggestion?: unknown } | undefined;
  if (typeof details?.suggestion === 'string')
    return { message: info.message, suggestion: details.suggestion };
  return {
    message: `${tool.name} failed: ${info.message}`,
    suggestion:
      tool.name === 'text_search'
        ? 'Try again with other words, or another tool.'
        : 'Try other inputs or another tool.',
  };
}
