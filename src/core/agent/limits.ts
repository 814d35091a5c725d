/** Every bound on one agent run. All of them are enforced by the runner, none is advisory. */
export interface AgentLimits {
  /** Decisions the decide model may take. */
  maxIterations: number;
  /** Tool executions, auto-triggered ones included; answering is not counted. */
  maxToolCalls: number;
  /** Extra answer drafts after a failed validation. */
  maxReprompts: number;
  maxQuestionChars: number;
  /** Budget for any one prompt's retrieved context. */
  contextTokens: number;
  /** The environment is summarised once it grows past this. */
  environmentTokenBudget: number;
  maxWallMs: number;
  /** Conversation turns carried into a follow-up question. */
  historyTurns: number;
  /** Page images the see role reads per visual_interpretation call. */
  maxImagesPerLook: number;
  decisionMaxTokens: number;
  answerMaxTokens: number;
  /** How many references deep the agent follows ("see Note 12" in a page reached by a reference). */
  referenceDepth: number;
  /** References followed per run. */
  referenceHops: number;
  /** Tokens of referenced passages kept per run. */
  referenceTokens: number;
  /** Rounds of targeted searches for parts of the question a draft leaves out. */
  coverageRounds: number;
}

export const DEFAULT_LIMITS: AgentLimits = {
  maxIterations: 8,
  maxToolCalls: 10,
  maxReprompts: 2,
  maxQuestionChars: 4000,
  contextTokens: 6000,
  environmentTokenBudget: 4000,
  maxWallMs: 180_000,
  historyTurns: 3,
  maxImagesPerLook: 3,
  decisionMaxTokens: 400,
  answerMaxTokens: 800,
  referenceDepth: 2,
  referenceHops: 6,
  referenceTokens: 1500,
  coverageRounds: 1,
};

export function resolveLimits(overrides: Partial<AgentLimits> = {}): AgentLimits {
  const limits = { ...DEFAULT_LIMITS, ...overrides };
  for (const [key, value] of Object.entries(limits)) {
    if (!Number.isFinite(value) || value < 0)
      throw new RangeError(`Agent limit ${key} must be a non-negative number.`);
  }
  return limits;
}
