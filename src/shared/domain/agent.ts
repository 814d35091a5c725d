import { z } from 'zod';
import { BoundingBox } from './search';

export const Citation = z.object({
  /** The number used in the answer text, as in `[1]`. */
  marker: z.number().int().positive(),
  documentId: z.string(),
  path: z.string(),
  page: z.number().int().positive(),
  chunkId: z.string().nullable(),
  snippet: z.string(),
  boxes: z.array(BoundingBox),
});
export type Citation = z.infer<typeof Citation>;

const base = { runId: z.string(), at: z.number() };

/**
 * How a run ended, as the user is told:
 * - answered: the answer passed the check and cites at least one page (or, for a question about the
 *   files themselves, rests on the file listing);
 * - unverified: the answer failed the check; it is shown with what is wrong;
 * - declined: the documents do not cover the question, and the answer says so;
 * - failed: no answer (a model or tool failure, or the time limit);
 * - cancelled: the user stopped it.
 */
export const AnswerStatus = z.enum(['answered', 'unverified', 'declined', 'failed', 'cancelled']);
export type AnswerStatus = z.infer<typeof AnswerStatus>;

/** Everything an agent run reports, in order; the list of them is the run's trace. */
export const AgentEvent = z.discriminatedUnion('type', [
  z.object({ ...base, type: z.literal('plan'), requirements: z.array(z.string()) }),
  z.object({
    ...base,
    type: z.literal('decision'),
    tool: z.string(),
    inputs: z.record(z.string(), z.unknown()),
    reasoning: z.string(),
    end: z.boolean(),
    source: z.enum(['model', 'router', 'auto', 'forced']),
  }),
  z.object({ ...base, type: z.literal('status'), message: z.string() }),
  z.object({
    ...base,
    type: z.literal('tool_result'),
    tool: z.string(),
    name: z.string(),
    summary: z.string(),
    items: z.number().int().nonnegative(),
    ms: z.number().nonnegative(),
  }),
  z.object({
    ...base,
    type: z.literal('error'),
    tool: z.string().nullable(),
    message: z.string(),
    suggestion: z.string().nullable(),
  }),
  z.object({
    ...base,
    type: z.literal('validation'),
    passed: z.boolean(),
    problems: z.array(z.string()),
  }),
  z.object({
    ...base,
    type: z.literal('reprompt'),
    problems: z.array(z.string()),
    remaining: z.number().int(),
  }),
  z.object({
    ...base,
    type: z.literal('token'),
    text: z.string(),
    /** Which answer draft the token belongs to: a `reprompt` discards the draft before it. */
    attempt: z.number().int().nonnegative().default(0),
  }),
  z.object({ ...base, type: z.literal('citation'), citation: Citation }),
  z.object({
    ...base,
    type: z.literal('final'),
    answer: z.string(),
    citations: z.array(Citation),
    insufficiencies: z.array(z.string()),
  }),
  z.object({
    ...base,
    type: z.literal('complete'),
    status: AnswerStatus,
    ms: z.number().nonnegative(),
    error: z.string().nullable(),
  }),
]);
export type AgentEvent = z.infer<typeof AgentEvent>;
export type AgentEventType = AgentEvent['type'];

export const ChatTurn = z.object({
  runId: z.string(),
  question: z.string(),
  answer: z.string().nullable(),
  citations: z.array(Citation),
  insufficiencies: z.array(z.string()),
  status: z.union([z.literal('running'), AnswerStatus]),
  startedAt: z.number(),
});
export type ChatTurn = z.infer<typeof ChatTurn>;

export const Conversation = z.object({
  id: z.string(),
  title: z.string(),
  createdAt: z.number(),
  turns: z.array(ChatTurn),
});
export type Conversation = z.infer<typeof Conversation>;

export const ConversationSummary = z.object({
  id: z.string(),
  title: z.string(),
  createdAt: z.number(),
  turns: z.number().int().nonnegative(),
});
export type ConversationSummary = z.infer<typeof ConversationSummary>;
