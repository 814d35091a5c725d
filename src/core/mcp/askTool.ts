/*
 * ask: the whole agent behind one tool call. Its steps go out as progress notifications when the
 * client asked for them; the client's cancel stops the run; the result carries the verdict and the
 * cited pages so the calling model can quote them or read them again.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { AgentEvent } from '../../shared/domain/agent';
import type { Core } from '../createCore';
import { noModelHelp } from '../models/catalogue/advice';
import { scopeOf } from './libraryAccess';
import { fitLines, guarded, shorten, structured, toolError } from './toolResults';

type AskCore = Pick<Core, 'library' | 'index' | 'ingestion' | 'pageImages' | 'dispatch' | 'agent' | 'models'>;

/** A step of the run in a few words, for a progress notification. */
function stepOf(event: AgentEvent): string | null {
  switch (event.type) {
    case 'plan':
      return `planned: ${event.requirements.join('; ')}`;
    case 'decision':
      return `${event.tool}${event.reasoning ? `: ${shorten(event.reasoning, 160)}` : ''}`;
    case 'tool_result':
      return `${event.tool}: ${shorten(event.summary, 160)}`;
    case 'status':
      return event.message;
    case 'validation':
      return event.passed ? 'the answer passed the check' : `the check found: ${event.problems.join('; ')}`;
    case 'error':
      return `problem: ${event.message}`;
    default:
      return null;
  }
}

export function registerAskTool(server: McpServer, core: AskCore): void {
  server.registerTool(
    'ask',
    {
      title: 'Ask the library',
      description:
        "Has Quire's own research agent answer a question from the library: it searches, reads pages, writes an " +
        'answer and checks it against the documents. Returns a status (answered: checked and cited; unverified: ' +
        'the check failed; declined: the documents do not cover it; failed), the answer, and citations (path, ' +
        'page, quoted passage). Slower than search (it runs a local model); use search and read_page when you ' +
        'can read the evidence yourself.',
      inputSchema: {
        question: z.string().min(1).max(4000).describe("The question, in the user's words."),
        in: z
          .array(z.string().min(1).max(4096))
          .max(100)
          .optional()
          .describe('Only these files or folders of the library.'),
        collection: z.string().min(1).max(120).optional().describe('Only this saved collection.'),
      },
      outputSchema: {
        status: z.enum(['answered', 'unverified', 'declined', 'failed', 'cancelled', 'paused']),
        answer: z.string(),
        citations: z.array(
          z.object({ marker: z.number(), path: z.string(), page: z.number(), passage: z.string() }),
        ),
        problems: z.array(z.string()),
        searched: z.string(),
      },
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: false,
      },
    },
    (args, extra) =>
      guarded(async () => {
        const scope = await scopeOf(core, args.in, args.collection ? [args.collection] : undefined);
        if (!(await core.models.chatModel('decide')) || !(await core.models.chatModel('answer'))) {
          return toolError(
            `Quire has no language model to answer with, so ask cannot run; search and read_page still work. ${noModelHelp(core.models.adviceMachine(), core.models.modelsDir)}`,
          );
        }
        if (extra.signal.aborted) return toolError('The question was cancelled.');
        const progressToken = extra._meta?.progressToken;
        let step = 0;
        let runId: string | null = null;
        const off = core.agent.onEvent((event) => {
          if (progressToken === undefined || event.runId !== runId) return;
          const message = stepOf(event);
          if (message === null) return;
          step += 1;
          void extra
            .sendNotification({
              method: 'notifications/progress',
              params: { progressToken, progress: step, message },
            })
            .catch(() => undefined);
        });
        const cancel = () => {
          if (runId) core.agent.cancel(runId);
        };
        extra.signal.addEventListener('abort', cancel, { once: true });
        try {
          const started = await core.agent.ask(args.question, undefined, {
            clarify: false,
            reviewPlan: false,
            ...(scope ? { scope } : {}),
          });
          runId = started.runId;
          if (extra.signal.aborted) cancel();
          const outcome = await core.agent.waitForRun(started.runId);
          const status = outcome?.status ?? 'failed';
          const citations = (outcome?.citations ?? []).map((c) => ({
            marker: c.marker,
            path: c.path,
            page: c.page,
            passage: shorten(c.snippet, 600),
          }));
          const answer = outcome?.answer ?? '';
          const problems = [...(outcome?.insufficiencies ?? []), ...(outcome?.error ? [outcome.error] : [])];
          const searched = outcome?.searched ?? 'the whole library';
          const { kept, text } = fitLines(
            citations,
            (c) => `[${c.marker}] ${c.path} p.${c.page}: "${c.passage}"`,
            8_000,
          );
          const lines = [
            `Status: ${status}`,
            answer || '(no answer)',
            ...(kept.length ? ['Sources:', text] : []),
            ...problems.map((p) => `Problem: ${p}`),
          ];
          return structured(lines.join('\n'), { status, answer, citations: kept, problems, searched });
        } finally {
          off();
          extra.signal.removeEventListener('abort', cancel);
        }
      }),
  );
}
