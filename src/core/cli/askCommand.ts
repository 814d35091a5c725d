import { createInterface } from 'node:readline/promises';
import type { ClarificationChoice } from '../../shared/domain/agent';
import type { Scope } from '../../shared/domain/scope';
import { QuireError } from '../../shared/errors';
import { AnswerPrinter, EXIT_CODES } from './answerPrinter';
import { noModelHelp, startModelCore, type ModelCommandOptions } from './modelCommands';
import { printJson } from './output';

const STATUS_WORDS = {
  unverified: 'the answer did not pass the check against the documents',
  declined: 'the documents do not cover the question',
  failed: 'no answer was written',
  cancelled: 'the question was cancelled',
  paused: 'the question needs a clarification (run it on a terminal to answer it)',
} as const;

/** Asks the agent's clarifying question on the terminal; the choice's index, or null for "you choose". */
async function askOnTerminal(question: string, choices: ClarificationChoice[]): Promise<number | null> {
  const lines = createInterface({ input: process.stdin, output: process.stderr });
  try {
    process.stderr.write(`\n${question}\n`);
    choices.forEach((choice, i) => process.stderr.write(`  ${i + 1}. ${choice.label}\n`));
    const reply = await lines.question(`Choose 1-${choices.length} (Enter lets Quire choose): `);
    const picked = Number(reply.trim());
    return Number.isInteger(picked) && picked >= 1 && picked <= choices.length ? picked - 1 : null;
  } finally {
    lines.close();
  }
}

/** Shows the agent's plan on the terminal; Enter approves it, or the user types their own questions. */
async function reviewOnTerminal(subQuestions: string[]): Promise<string[]> {
  const lines = createInterface({ input: process.stdin, output: process.stderr });
  try {
    process.stderr.write('\nQuire will research these questions:\n');
    subQuestions.forEach((q, i) => process.stderr.write(`  ${i + 1}. ${q}\n`));
    const reply = await lines.question('Enter to approve, or type your own questions separated by ";": ');
    const edited = reply
      .split(';')
      .map((q) => q.trim())
      .filter(Boolean);
    return edited.length > 0 ? edited : subQuestions;
  } finally {
    lines.close();
  }
}

/**
 * `quire ask "<question>"`: the kept answer, then "Sources:"; `--json` prints status, answer,
 * citations and trace. The exit code says whether the answer was verified (see EXIT_CODES). An
 * ambiguous question is asked back on a terminal; with `--no-clarify` or no terminal the agent
 * assumes a reading and says which. With `--review-plan` on a terminal, a multi-part question's plan
 * is shown for approval first.
 */
export async function askCommand(
  question: string | undefined,
  options: ModelCommandOptions & { clarify?: boolean; reviewPlan?: boolean; scope?: Scope | null },
): Promise<void> {
  if (!question)
    throw new QuireError('invalid_input', 'Usage: quire ask "<question>" [--model PATH.gguf] [--json]');
  const core = await startModelCore(options, { attachEmbeddings: true });
  try {
    if (!(await core.models.chatModel('decide')) || !(await core.models.chatModel('answer'))) {
      const problem = options.modelPath ? core.models.problemWith(options.modelPath) : null;
      throw new QuireError(
        'model_unavailable',
        problem ? `The model ${options.modelPath} cannot be used: ${problem}` : noModelHelp(core),
      );
    }
    const printer = options.json ? null : new AnswerPrinter(process.stdout);
    const stepsOnTerminal = !options.json && process.stderr.isTTY;
    let stepsPending = false;
    const off = core.agent.onEvent((event) => {
      if (stepsOnTerminal && event.type === 'decision') {
        process.stderr.write(`[${event.tool}] `);
        stepsPending = true;
      }
      // The answer starts on a line of its own, so erasing a rejected draft erases nothing else.
      if (stepsPending && event.type === 'token') {
        process.stderr.write('\n');
        stepsPending = false;
      }
      printer?.onEvent(event);
    });
    const interactive = !options.json && process.stdin.isTTY && process.stderr.isTTY;
    const { runId, conversationId } = await core.agent.ask(question, undefined, {
      clarify: (options.clarify ?? true) && interactive,
      reviewPlan: (options.reviewPlan ?? false) && interactive,
      ...(options.scope ? { scope: options.scope } : {}),
    });
    let outcome = await core.agent.waitForRun(runId);
    while (outcome?.status === 'paused' && (outcome.clarification || outcome.planReview)) {
      if (outcome.clarification) {
        const choice = await askOnTerminal(outcome.clarification.question, outcome.clarification.choices);
        await core.agent.clarify(conversationId, runId, choice);
      } else if (outcome.planReview) {
        const approved = await reviewOnTerminal(outcome.planReview.subQuestions);
        await core.agent.approvePlan(conversationId, runId, approved);
      }
      outcome = await core.agent.waitForRun(runId);
    }
    off();
    if (stepsPending) process.stderr.write('\n');
    const status = outcome?.status ?? 'failed';
    const citations = (outcome?.citations ?? []).map((c) => ({
      marker: c.marker,
      path: c.path,
      page: c.page,
      snippet: c.snippet,
    }));
    if (options.json) {
      printJson({
        status,
        answer: outcome?.answer ?? '',
        citations,
        insufficiencies: outcome?.insufficiencies ?? [],
        searched: outcome?.searched ?? 'the whole library',
        error: outcome?.error ?? null,
        // Streamed tokens are left out: the kept answer is above, and a rejected draft is not shown.
        trace: (outcome?.events ?? (await core.agent.trace(runId))).filter((event) => event.type !== 'token'),
      });
    } else {
      printer?.finish(citations);
      if (options.scope) console.log(`Searched: ${outcome?.searched ?? 'the scope'}.`);
      if (status === 'unverified') {
        for (const problem of outcome?.insufficiencies ?? []) console.log(`Not verified: ${problem}`);
      }
    }
    if (status !== 'answered') {
      const detail = status === 'failed' && outcome?.error ? `: ${outcome.error}` : '';
      process.stderr.write(`quire: ${status}: ${STATUS_WORDS[status]}${detail}\n`);
    }
    process.exitCode = EXIT_CODES[status];
  } finally {
    await core.dispose();
  }
}
