/*
 * Answers to take away: an answer, or a whole conversation, as Markdown with its citations (file,
 * page, quoted passage) and what was searched. Pure text, shared by the app's copy and export and
 * any other caller.
 */
import type { Citation } from '../domain/agent';

export interface AnswerForExport {
  question: string;
  answer: string | null;
  citations: readonly Citation[];
  /** What the run searched, in the user's words; absent for runs that did not record it. */
  searched?: string | undefined;
  status: string;
}

const STATUS_NOTES: Record<string, string> = {
  unverified: 'Not verified: the answer did not pass the check against the documents.',
  declined: 'The documents do not cover this question.',
  failed: 'No answer was written.',
  cancelled: 'Stopped before the answer was finished.',
  running: 'Still being answered when this was exported.',
  paused: 'Waiting for a clarification when this was exported.',
};

const fileName = (path: string) => path.split(/[\\/]/).at(-1) ?? path;

/** A passage as a Markdown quote, on one line per source line, never breaking out of the quote. */
function quote(text: string): string {
  return text
    .replace(/\s+/g, ' ')
    .trim()
    .split(/(?<=[.!?])\s+(?=[A-Z])/)
    .map((line) => `> ${line}`)
    .join('\n');
}

export function answerMarkdown(turn: AnswerForExport, heading = '##'): string {
  const parts = [`${heading} ${turn.question.replace(/\s+/g, ' ').trim()}`];
  if (turn.searched) parts.push(`*Searched: ${turn.searched}.*`);
  if (turn.answer) parts.push(turn.answer.trim());
  const note = STATUS_NOTES[turn.status];
  if (note) parts.push(`*${note}*`);
  if (turn.citations.length > 0) {
    const sources = [...turn.citations]
      .sort((a, b) => a.marker - b.marker)
      .map(
        (c) => `[${c.marker}] **${fileName(c.path)}**, page ${c.page} (\`${c.path}\`)\n\n${quote(c.snippet)}`,
      );
    parts.push(`**Sources**\n\n${sources.join('\n\n')}`);
  }
  return `${parts.join('\n\n')}\n`;
}

export function conversationMarkdown(conversation: {
  title: string;
  createdAt: number;
  searched?: string | undefined;
  turns: readonly AnswerForExport[];
}): string {
  const head = [
    `# ${conversation.title.replace(/\s+/g, ' ').trim()}`,
    `*Asked with Quire on ${new Date(conversation.createdAt).toISOString().slice(0, 10)}${
      conversation.searched ? `; searched: ${conversation.searched}` : ''
    }.*`,
  ];
  return [head.join('\n\n'), ...conversation.turns.map((turn) => answerMarkdown(turn))].join('\n\n');
}
