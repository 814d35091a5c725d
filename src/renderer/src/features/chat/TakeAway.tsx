import { useState } from 'react';
import {
  answerMarkdown,
  conversationMarkdown,
  type AnswerForExport,
} from '../../../../shared/format/answerMarkdown';
import { useChatStore, type ChatState } from './chatStore';

function turnsForExport(state: ChatState): AnswerForExport[] {
  return state.turns.map((turn) => {
    const run = state.runs[turn.runId];
    return {
      question: turn.question,
      answer: run?.answer ?? null,
      citations: run?.citations ?? [],
      searched: turn.searched,
      status: run?.status ?? 'running',
    };
  });
}

/** Copies one answer as Markdown, with its sources (file, page, quoted passage) and what was searched. */
export function CopyAnswerButton({ runId }: { runId: string }) {
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null);
  return (
    <button
      type="button"
      className="button button--small button--quiet"
      data-testid="copy-answer"
      onClick={() => {
        const state = useChatStore.getState();
        const turn = turnsForExport(state).find((_, i) => state.turns[i]?.runId === runId);
        if (!turn) return;
        navigator.clipboard.writeText(answerMarkdown(turn)).then(
          () => setCopied('yes'),
          () => setCopied('failed'),
        );
      }}
    >
      {copied === 'yes' ? 'Copied' : copied === 'failed' ? 'Copy failed' : 'Copy as Markdown'}
    </button>
  );
}

/** Saves the whole conversation as a Markdown file. */
export function ExportConversationButton() {
  const hasTurns = useChatStore((state) => state.turns.length > 0);
  if (!hasTurns) return null;
  return (
    <button
      type="button"
      className="button button--small button--quiet"
      data-testid="export-conversation"
      onClick={() => {
        const state = useChatStore.getState();
        const turns = turnsForExport(state);
        const title =
          state.conversations.find((c) => c.id === state.conversationId)?.title ??
          turns[0]?.question ??
          'Conversation';
        const text = conversationMarkdown({
          title,
          createdAt: state.turns[0]?.startedAt ?? Date.now(),
          turns,
        });
        const link = document.createElement('a');
        link.href = URL.createObjectURL(new Blob([text], { type: 'text/markdown' }));
        link.download = `${
          title
            .replace(/[^\p{L}\p{N} _-]+/gu, '')
            .trim()
            .slice(0, 60) || 'conversation'
        }.md`;
        link.click();
        setTimeout(() => URL.revokeObjectURL(link.href), 1000);
      }}
    >
      Export
    </button>
  );
}
