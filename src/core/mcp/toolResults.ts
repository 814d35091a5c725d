/*
 * Tool results as MCP wants them: text for the model, structured content for programs, errors as
 * results (isError) so the model reads why instead of the client failing the call.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { QuireError } from '../../shared/errors';

/** Text past this many characters is cut: a result lands in a model's context window. */
export const MAX_RESULT_CHARS = 24_000;

/** A passage longer than this is shortened in lists; read_page gives a whole page. */
export const MAX_SNIPPET_CHARS = 400;

export function shorten(text: string, max = MAX_SNIPPET_CHARS): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

/**
 * Keeps the leading items whose lines fit in the result's budget; `cut` counts those left out, so
 * the text and the structured content say the same.
 */
export function fitLines<T>(items: readonly T[], line: (item: T) => string, budget = MAX_RESULT_CHARS) {
  const kept: T[] = [];
  const lines: string[] = [];
  let used = 0;
  for (const item of items) {
    const text = line(item);
    if (used + text.length + 1 > budget && kept.length > 0) break;
    kept.push(item);
    lines.push(text);
    used += text.length + 1;
  }
  const cut = items.length - kept.length;
  if (cut > 0) lines.push(`(cut: ${cut} more not shown; narrow the request to see them)`);
  return { kept, text: lines.join('\n'), cut };
}

export function structured<T extends Record<string, unknown>>(text: string, content: T): CallToolResult {
  return { content: [{ type: 'text', text }], structuredContent: content };
}

export function toolError(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}

/** A failure as the model should read it: a QuireError's own sentence, anything else named. */
export function errorResult(error: unknown): CallToolResult {
  if (error instanceof QuireError) {
    const details = error.details as { suggestion?: unknown } | undefined;
    const suggestion = typeof details?.suggestion === 'string' ? ` ${details.suggestion}` : '';
    return toolError(`${error.message}${suggestion}`);
  }
  return toolError(`Quire failed: ${error instanceof Error ? error.message : String(error)}`);
}

/** Runs a tool's body, turning any failure into a tool error the model can read. */
export async function guarded(body: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await body();
  } catch (error) {
    return errorResult(error);
  }
}
