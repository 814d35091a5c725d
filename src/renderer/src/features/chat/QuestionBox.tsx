import { useState, type FormEvent, type KeyboardEvent } from 'react';
import { ErrorMessage } from '../../components/ErrorMessage';
import { useAction } from '../../lib/useAction';
import { selectRunningRunId, useChatStore } from './chatStore';
import { ScopeChip } from './ScopeChip';

export const QUESTION_INPUT_ID = 'question-input';

export function QuestionBox() {
  const ask = useChatStore((state) => state.ask);
  const cancel = useChatStore((state) => state.cancel);
  const runningRunId = useChatStore(selectRunningRunId);
  const reviewPlan = useChatStore((state) => state.reviewPlan);
  const setReviewPlan = useChatStore((state) => state.setReviewPlan);
  const askAction = useAction(ask);
  const cancelAction = useAction(cancel);
  const [question, setQuestion] = useState('');
  const busy = askAction.busy || runningRunId !== null;
  const canAsk = !busy && question.trim().length > 0;

  async function send() {
    if (!canAsk) return;
    if (await askAction.run(question.trim())) setQuestion('');
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    void send();
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    // Enter while an input method composes text confirms the composition, not the question.
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void send();
    }
  }

  return (
    <form className="question-box" onSubmit={onSubmit}>
      <label htmlFor={QUESTION_INPUT_ID} className="visually-hidden">
        Question
      </label>
      <ScopeChip />
      <div className="question-box__row">
        <textarea
          id={QUESTION_INPUT_ID}
          className="question-box__input"
          rows={2}
          maxLength={4000}
          value={question}
          placeholder="Ask about your documents…"
          aria-keyshortcuts="Control+K Meta+K"
          data-testid="question-input"
          onChange={(event) => {
            setQuestion(event.target.value);
            if (askAction.error) askAction.clearError();
          }}
          onKeyDown={onKeyDown}
        />
        {runningRunId ? (
          <button
            type="button"
            className="button"
            disabled={cancelAction.busy}
            data-testid="cancel-button"
            onClick={() => void cancelAction.run(runningRunId)}
          >
            {cancelAction.busy ? 'Stopping…' : 'Stop'}
          </button>
        ) : (
          <button
            type="submit"
            className="button button--primary"
            disabled={!canAsk}
            data-testid="ask-button"
          >
            {askAction.busy ? 'Asking…' : 'Ask'}
          </button>
        )}
      </div>
      <p className="question-box__hint muted small">
        Enter to ask · Shift+Enter for a new line · Ctrl/⌘+K to come back here
      </p>
      <label className="question-box__option muted small">
        <input
          type="checkbox"
          checked={reviewPlan}
          data-testid="review-plan"
          onChange={(event) => setReviewPlan(event.target.checked)}
        />
        Show the plan of a multi-part question before researching it
      </label>
      <ErrorMessage error={askAction.error ?? cancelAction.error} />
    </form>
  );
}
