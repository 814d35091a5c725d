import { z } from 'zod';
import { Scope } from './scope';
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

/** How a run stopped: with an answer status, or `paused` waiting for the user to answer a `clarify` question. */
export const RunStatus = z.union([AnswerStatus, z.literal('paused')]);
export type RunStatus = z.infer<typeof RunStatus>;

/** A page a reference pointed from or to. */
export const PageRef = z.object({
  documentId: z.string(),
  path: z.string(),
  page: z.number().int().positive(),
});
export type PageRef = z.infer<typeof PageRef>;

/** One reading of an ambiguous question the user can pick. */
export const ClarificationChoice = z.object({
  /** What the user sees, e.g. "AMCOR_2023_10K.pdf". */
  label: z.string(),
  /** The documents this reading limits the search to. */
  documentIds: z.array(z.string()),
});
export type ClarificationChoice = z.infer<typeof ClarificationChoice>;

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
  /** One hop of reference following: "see Note 12" on one page, resolved (or not) to another. */
  z.object({
    ...base,
    type: z.literal('reference'),
    reference: z.string(),
    from: PageRef,
    to: PageRef.nullable(),
    depth: z.number().int().positive(),
    /** Passages of the target kept as relevant to the question. */
    kept: z.number().int().nonnegative(),
    /** Why the hop stopped or failed, when it did; how the target was found, when not by searching. */
    note: z.string().nullable(),
  }),
  /** One round of the coverage check: which parts of the question the draft covers. */
  z.object({
    ...base,
    type: z.literal('coverage'),
    round: z.number().int().nonnegative(),
    covered: z.array(z.string()),
    missing: z.array(z.string()),
    /** Targeted searches this round adds for the missing parts. */
    searches: z.array(z.string()),
  }),
  /** The run pauses: the question reads more than one way against the library. */
  z.object({
    ...base,
    type: z.literal('clarify'),
    question: z.string(),
    choices: z.array(ClarificationChoice).min(2),
  }),
  /**
   * The run pauses (when plan review is on): the sub-questions it means to research, for the user to
   * approve or edit (chat.approvePlan).
   */
  z.object({
    ...base,
    type: z.literal('plan_review'),
    subQuestions: z.array(z.string()).min(2),
  }),
  /** Something left the machine (web search, a download); never emitted while web search is off. */
  z.object({ ...base, type: z.literal('network'), host: z.string(), purpose: z.string() }),
  /** A PDF the web search found; it joins the library only if the user approves (library.addFromWeb). */
  z.object({ ...base, type: z.literal('proposal'), url: z.string(), title: z.string() }),
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
    /** `paused`: waiting for the user to answer a `clarify` question or to approve a `plan_review`. */
    status: RunStatus,
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
  status: z.union([z.literal('running'), RunStatus]),
  startedAt: z.number(),
  /** While paused: the question the run asks the user, with its choices. */
  clarification: z
    .object({ question: z.string(), choices: z.array(ClarificationChoice) })
    .nullable()
    .default(null),
  /** While paused for approval: the sub-questions the run means to research. */
  planReview: z
    .object({ subQuestions: z.array(z.string()) })
    .nullable()
    .default(null),
  /** The run shows its plan for approval before researching a compound question. */
  reviewPlan: z.boolean().default(false),
  /** The reading the user chose when asked (null: they let Quire choose); kept so a later resume keeps it. */
  chosenReading: ClarificationChoice.nullable().optional(),
  /** What the run searched, in the user's words ("the whole library", a folder, a collection). */
  searched: z.string().optional(),
});
export type ChatTurn = z.infer<typeof ChatTurn>;

export const Conversation = z.object({
  id: z.string(),
  title: z.string(),
  createdAt: z.number(),
  turns: z.array(ChatTurn),
  /** What this conversation searches, kept across turns and restarts; absent or null: the whole library. */
  scope: Scope.nullable().optional(),
});
export type Conversation = z.infer<typeof Conversation>;

export const ConversationSummary = z.object({
  id: z.string(),
  title: z.string(),
  createdAt: z.number(),
  turns: z.number().int().nonnegative(),
});
export type ConversationSummary = z.infer<typeof ConversationSummary>;
