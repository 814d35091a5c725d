import { basename } from 'node:path';
import type { AgentEvent, Citation, RunStatus } from '../../shared/domain/agent';
import { shown, shownLines } from './output';

/** Where the answer goes: stdout in the CLI, a buffer in tests. */
export interface TextOut {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

/** `quire ask`'s exit code for each status; the README documents the same table. */
export const EXIT_CODES: Record<RunStatus, number> = {
  answered: 0,
  declined: 2,
  unverified: 2,
  // Left waiting for a clarification nobody can give (no terminal): not an answer.
  paused: 2,
  failed: 1,
  cancelled: 1,
};

/** Terminal rows `text` takes, written from column 0 on a terminal `columns` wide. */
export function rowsOf(text: string, columns: number): number {
  const width = Math.max(1, columns);
  return text.split('\n').reduce((rows, line) => rows + Math.max(1, Math.ceil(line.length / width)), 0);
}

/** "Sources:" and one line per citation: the document's file name and the page. */
export function sourceLines(citations: readonly Pick<Citation, 'marker' | 'path' | 'page'>[]): string[] {
  if (citations.length === 0) return [];
  return [
    'Sources:',
    ...citations.map(
      (citation) => `  [${citation.marker}] ${shown(basename(citation.path))}, page ${citation.page}`,
    ),
  ];
}

/**
 * Prints only the answer attempt that is kept. On a terminal the current draft streams as it is
 * written and is erased when the check rejects it; anywhere else nothing is printed until the final
 * answer is known, so a rejected draft never reaches a pipe or a file.
 */
export class AnswerPrinter {
  private attempt: number | null = null;
  private streamed = '';
  private finalAnswer: string | null = null;

  constructor(private readonly out: TextOut) {}

  private get live(): boolean {
    return this.out.isTTY === true;
  }

  onEvent(event: AgentEvent): void {
    switch (event.type) {
      case 'token': {
        if (!this.live) return;
        if (this.attempt !== event.attempt) this.erase();
        this.attempt = event.attempt;
        // The answer quotes documents: what they hold must not steer the terminal either.
        const text = shownLines(event.text);
        this.streamed += text;
        this.out.write(text);
        return;
      }
      case 'reprompt':
        this.erase();
        return;
      case 'final': {
        const answer = shownLines(event.answer);
        this.finalAnswer = answer;
        // Grounding may have removed markers that point at nothing: show what is kept.
        if (this.live && this.streamed.trim() !== answer.trim()) this.erase();
        if (this.streamed === '') this.out.write(answer);
        this.streamed = answer;
        return;
      }
      default:
        return;
    }
  }

  /** Ends the answer and prints its sources. */
  finish(citations: readonly Pick<Citation, 'marker' | 'path' | 'page'>[]): void {
    if (this.finalAnswer === null && this.streamed === '') return;
    this.out.write('\n');
    const sources = sourceLines(citations);
    if (sources.length > 0) this.out.write(`\n${sources.join('\n')}\n`);
  }

  private erase(): void {
    if (this.streamed === '') return;
    if (this.live) {
      const up = rowsOf(this.streamed, this.out.columns ?? 80) - 1;
      this.out.write(`\r${up > 0 ? `\x1b[${up}A` : ''}\x1b[J`);
    }
    this.streamed = '';
  }
}
