import { QuireError } from '../../shared/errors';
import { AnswerPrinter, EXIT_CODES } from './answerPrinter';
import { noModelHelp, startModelCore, type ModelCommandOptions } from './modelCommands';
import { printJson } from './output';

const STATUS_WORDS = {
  unverified: 'the answer did not pass the check against the documents',
  declined: 'the documents do not cover the question',
  failed: 'no answer was written',
  cancelled: 'the question was cancelled',
} as const;

/**
 * `quire ask "<question>"`: the kept answer, then "Sources:"; `--json` prints answer, status,
 * citations and trace. The exit code says whether the answer was verified (see EXIT_CODES).
 */
export async function askCommand(question: string | undefined, options: ModelCommandOptions): Promise<void> {
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
    const { runId } = await core.agent.ask(question);
    const outcome = await core.agent.waitForRun(runId);
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
        error: outcome?.error ?? null,
        // Streamed tokens are left out: the kept answer is above, and a rejected draft is not shown.
        trace: (outcome?.events ?? (await core.agent.trace(runId))).filter((event) => event.type !== 'token'),
      });
    } else {
      printer?.finish(citations);
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
    await core.close();
  }
}
