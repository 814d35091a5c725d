import { useState } from 'react';
import type { ClarificationChoice } from '../../../../shared/domain/agent';
import type { ErrorInfo } from '../../../../shared/errors';
import { ErrorMessage } from '../../components/ErrorMessage';
import { useChatStore } from './chatStore';

interface ClarificationPromptProps {
  runId: string;
  question: string;
  choices: ClarificationChoice[];
}

/** The agent's question about an ambiguous request: one button per reading, or let it choose. */
export function ClarificationPrompt({ runId, question, choices }: ClarificationPromptProps) {
  const clarify = useChatStore((state) => state.clarify);
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<ErrorInfo | null>(null);
  const answer = async (choice: number | null) => {
    setSending(true);
    const failure = await clarify(runId, choice);
    setSending(false);
    setError(failure);
  };
  return (
    <div className="clarification" role="group" aria-label="The agent asks" data-testid="clarification">
      <p className="clarification__question">{question}</p>
      <div className="clarification__choices">
        {choices.map((choice, index) => (
          <button
            key={choice.label}
            type="button"
            className="button"
            disabled={sending}
            data-testid="clarification-choice"
            onClick={() => void answer(index)}
          >
            {choice.label}
          </button>
        ))}
        <button
          type="button"
          className="button button--link"
          disabled={sending}
          onClick={() => void answer(null)}
        >
          Let Quire choose
        </button>
      </div>
      {error && <ErrorMessage error={error.message} />}
    </div>
  );
}
