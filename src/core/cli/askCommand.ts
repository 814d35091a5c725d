import { resolve } from 'node:path';
import { createInterface } from 'node:readline/promises';
import type { ClarificationChoice } from '../../shared/domain/agent';
import { QuireError } from '../../shared/errors';
import { NO_MODEL_HELP, startModelCore, type ModelCommandOptions } from './modelCommands';
import { printJson } from './output';

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
 * `quire ask "<question>"`: streams the answer on a terminal; `--json` prints answer, citations and trace.
 * An ambiguous question is asked back on a terminal; with `--no-clarify` or no terminal the agent
 * assumes a reading and says which. With `--review-plan` on a terminal, a multi-part question's plan
 * is shown for approval first.
 */
export async function askCommand(
  question: string | undefined,
  options: ModelCommandOptions & { clarify?: boolean; reviewPlan?: boolean },
): Promise<void> {
  if (!question)
    throw new QuireError('invalid_input', 'Usage: quire ask "<question>" [--model PATH.gguf] [--json]');
  const core = await startModelCore(options);
  try {
    if (!(await core.models.chatModel('decide')) || !(await core.models.chatModel('answer'))) {
      const problem = options.modelPath ? core.models.problemWith(resolve(options.modelPath)) : null;
      throw new QuireError(
        'model_unavailable',
        problem ? `The model ${options.modelPath} cannot be used: ${problem}` : NO_MODEL_HELP,
      );
    }
    const stream = !options.json;
    const off = core.agent.onEvent((event) => {
      if (!stream) return;
      if (event.type === 'token') process.stdout.write(event.text);
      else if (event.type === 'decision' && process.stderr.isTTY) process.stderr.write(`[${event.tool}] `);
    });
    const interactive = !options.json && process.stdin.isTTY && process.stderr.isTTY;
    const { runId, conversationId } = await core.agent.ask(question, undefined, {
      clarify: (options.clarify ?? true) && interactive,
      reviewPlan: (options.reviewPlan ?? false) && interactive,
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
    const trace = outcome?.events ?? (await core.agent.trace(runId));
    const citations = (outcome?.citations ?? []).map((c) => ({
      marker: c.marker,
      path: c.path,
      page: c.page,
      snippet: c.snippet,
    }));
    if (options.json) {
      printJson({
        answer: outcome?.answer ?? '',
        citations,
        insufficiencies: outcome?.insufficiencies ?? [],
        status: outcome?.status ?? 'failed',
        trace,
      });
    } else {
      process.stdout.write('\n');
      for (const citation of citations)
        console.log(`[${citation.marker}] ${citation.path}, page ${citation.page}`);
      for (const missing of outcome?.insufficiencies ?? []) console.log(`Not covered: ${missing}`);
    }
    if (outcome?.status !== 'answered') {
      process.stderr.write(
        `quire: the question was not answered: ${outcome?.error ?? outcome?.status ?? 'unknown'}\n`,
      );
      process.exitCode = 1;
    }
  } finally {
    await core.close();
  }
}
