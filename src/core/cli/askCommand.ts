import { resolve } from 'node:path';
import { QuireError } from '../../shared/errors';
import { NO_MODEL_HELP, startModelCore, type ModelCommandOptions } from './modelCommands';
import { printJson } from './output';

/** `quire ask "<question>"`: streams the answer on a terminal; `--json` prints answer, citations and trace. */
export async function askCommand(question: string | undefined, options: ModelCommandOptions): Promise<void> {
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
    const { runId } = await core.agent.ask(question);
    const outcome = await core.agent.waitForRun(runId);
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
