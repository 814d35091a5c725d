import type { z } from 'zod';
import type { AgentEventBody } from '../events';
import type { AgentLimits } from '../limits';
import type { AgentPorts } from '../ports';
import type { AgentState } from '../state';

/** A JSON Schema fragment, as given to a model for structured output. */
export type JsonSchema = Record<string, unknown>;

export interface ToolResult {
  type: 'result';
  /** Names the result within the tool (e.g. the query); the environment keys results by tool and name. */
  name: string;
  /** What the model reads. */
  text: string;
  items: number;
  /** One line for the trace. */
  summary: string;
}

/** A failure the model can do something about: the suggestion says what. */
export interface ToolError {
  type: 'error';
  message: string;
  suggestion: string | null;
}

export type ToolYield = ToolResult | ToolError;

export interface ToolContext {
  state: AgentState;
  ports: AgentPorts;
  limits: AgentLimits;
  signal: AbortSignal;
  /** Streams answer text as it is generated. */
  emitToken: (text: string) => void;
  /** Adds a step of its own to the trace (a reference hop, a use of the network). */
  emit: (event: AgentEventBody) => void;
}

export interface Tool<Inputs = unknown> {
  readonly name: string;
  readonly description: string;
  /** Validates (and converts) what the model sent. */
  readonly inputSchema: z.ZodType<Inputs>;
  /** The same inputs for the model: strings with maxLength, numbers as string enums, all keys required. */
  readonly modelInputSchema: JsonSchema;
  /** Ends the run when chosen. */
  readonly ends: boolean;
  isAvailable(state: AgentState): boolean;
  /** Auto-trigger: checked before every decision, runs with `defaultInputs` when true. */
  runIfTrue?(state: AgentState, limits: AgentLimits): boolean;
  /** Inputs for a call the agent makes on its own (router, auto-trigger, forced answer). */
  defaultInputs(state: AgentState): Inputs;
  run(inputs: Inputs, context: ToolContext): AsyncGenerator<ToolYield>;
}

// Tools of different input types live in one list; each validates its own inputs before run.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyTool = Tool<any>;
