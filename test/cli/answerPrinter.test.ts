import { describe, expect, it } from 'vitest';
import { answerStatus } from '../../src/core/agent/answerStatus';
import { AnswerPrinter, EXIT_CODES, rowsOf, sourceLines } from '../../src/core/cli/answerPrinter';
import type { AgentEvent } from '../../src/shared/domain/agent';

/** A terminal that applies the escapes the printer uses, so the test reads what a person would see. */
class FakeTerminal {
  rows: string[] = [''];
  written = '';
  constructor(
    readonly isTTY: boolean,
    readonly columns = 40,
  ) {}
  write(text: string): boolean {
    this.written += text;
    const esc = String.fromCharCode(27);
    const pattern = new RegExp(`\\r|\\n|${esc}\\[(\\d*)A|${esc}\\[J|[^\\r\\n${esc}]+`, 'g');
    for (const [token, up] of text.matchAll(pattern)) {
      if (token === '\r') continue;
      else if (token === '\n') this.rows.push('');
      else if (token.endsWith('A')) this.rows.splice(this.rows.length - Number(up || 1));
      else if (token === '\x1b[J') this.rows[this.rows.length - 1] = '';
      else this.rows[this.rows.length - 1] += token;
      if (this.rows.length === 0) this.rows.push('');
    }
    return true;
  }
  get screen(): string {
    return this.rows.join('\n');
  }
}

const at = 0;
const token = (text: string, attempt: number): AgentEvent => ({
  type: 'token',
  runId: 'r',
  at,
  text,
  attempt,
});
const reprompt: AgentEvent = { type: 'reprompt', runId: 'r', at, problems: ['no citation'], remaining: 0 };
const final = (answer: string): AgentEvent => ({
  type: 'final',
  runId: 'r',
  at,
  answer,
  citations: [],
  insufficiencies: [],
});
const citations = [
  { marker: 1, path: '/library/papers/tracemonkey.pdf', page: 3 },
  { marker: 2, path: '/library/papers/tracemonkey.pdf', page: 7 },
];

function replay(out: FakeTerminal, events: AgentEvent[]): void {
  const printer = new AnswerPrinter(out);
  for (const event of events) printer.onEvent(event);
  printer.finish(citations);
}

describe('quire ask output', () => {
  const rejected = 'A draft that the check rejects for want of a citation.';
  const kept = 'Hot loops are compiled along recorded traces [1].';
  const events = [
    token(rejected.slice(0, 20), 0),
    token(rejected.slice(20), 0),
    reprompt,
    token(kept, 1),
    final(kept),
  ];

  it('on a terminal, erases the rejected draft and keeps only the answer and its sources', () => {
    const terminal = new FakeTerminal(true, 24);
    replay(terminal, events);
    expect(terminal.written).toContain('for want of'); // it was streamed while it was written
    expect(terminal.screen).not.toContain('for want of');
    expect(terminal.screen).toContain(kept);
    expect(terminal.screen).toContain(
      'Sources:\n  [1] tracemonkey.pdf, page 3\n  [2] tracemonkey.pdf, page 7',
    );
  });

  it('without a terminal, never prints a rejected draft', () => {
    const pipe = new FakeTerminal(false);
    replay(pipe, events);
    expect(pipe.written).not.toContain('for want of');
    expect(pipe.written).toBe(
      `${kept}\n\nSources:\n  [1] tracemonkey.pdf, page 3\n  [2] tracemonkey.pdf, page 7\n`,
    );
  });

  it('replaces a streamed draft whose markers grounding removed', () => {
    const terminal = new FakeTerminal(true);
    replay(terminal, [token('Claim [9].', 0), final('Claim.')]);
    expect(terminal.screen.split('\n')[0]).toBe('Claim.');
  });

  it('counts wrapped rows so erasing never eats lines above the draft', () => {
    expect(rowsOf('abcdef', 3)).toBe(2);
    expect(rowsOf('ab\ncd', 80)).toBe(2);
    expect(sourceLines([])).toEqual([]);
  });

  it('maps statuses to exit codes: 0 answered, 2 declined or unverified, 1 failed', () => {
    expect(EXIT_CODES).toEqual({
      answered: 0,
      declined: 2,
      unverified: 2,
      paused: 2,
      failed: 1,
      cancelled: 1,
    });
  });
});

describe('answer status', () => {
  const base = { text: 'It compiles traces [1].', passed: true, citations: 1, aboutFiles: false };
  it('calls an answer answered only when it passed the check and cites a page', () => {
    expect(answerStatus(base)).toBe('answered');
    expect(answerStatus({ ...base, citations: 0 })).toBe('unverified');
    expect(answerStatus({ ...base, passed: false })).toBe('unverified');
    expect(answerStatus({ ...base, citations: 0, aboutFiles: true })).toBe('answered');
  });

  it('calls an uncited answer that says the documents do not cover it declined', () => {
    const text = 'The documents do not mention the warranty period.';
    expect(answerStatus({ ...base, text, citations: 0 })).toBe('declined');
    expect(answerStatus({ ...base, text, citations: 0, passed: false })).toBe('declined');
  });
});
