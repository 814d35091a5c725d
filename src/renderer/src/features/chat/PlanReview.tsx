import { useState } from 'react';
import type { ErrorInfo } from '../../../../shared/errors';
import { ErrorMessage } from '../../components/ErrorMessage';
import { useChatStore } from './chatStore';

interface PlanReviewProps {
  runId: string;
  subQuestions: string[];
}

/** The agent's plan for a compound question: each sub-question can be edited or dropped before it researches. */
export function PlanReview({ runId, subQuestions }: PlanReviewProps) {
  const approvePlan = useChatStore((state) => state.approvePlan);
  const [plan, setPlan] = useState(subQuestions);
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<ErrorInfo | null>(null);
  const kept = plan.map((q) => q.trim()).filter(Boolean);
  const approve = async () => {
    setSending(true);
    const failure = await approvePlan(runId, kept);
    setSending(false);
    setError(failure);
  };
  return (
    <div className="clarification" role="group" aria-label="The agent's plan" data-testid="plan-review">
      <p className="clarification__question">
        Quire will research these questions. Edit or remove any first:
      </p>
      <ol className="plan-review__list">
        {plan.map((subQuestion, index) => (
          <li key={index} className="plan-review__item">
            <input
              className="plan-review__input"
              aria-label={`Question ${index + 1}`}
              value={subQuestion}
              maxLength={500}
              disabled={sending}
              data-testid="plan-question"
              onChange={(event) => setPlan(plan.map((q, i) => (i === index ? event.target.value : q)))}
            />
            <button
              type="button"
              className="button button--link"
              disabled={sending || plan.length === 1}
              onClick={() => setPlan(plan.filter((_, i) => i !== index))}
            >
              Remove
            </button>
          </li>
        ))}
      </ol>
      <div className="clarification__choices">
        <button
          type="button"
          className="button button--primary"
          disabled={sending || kept.length === 0}
          data-testid="plan-approve"
          onClick={() => void approve()}
        >
          {sending ? 'Starting…' : 'Research this plan'}
        </button>
      </div>
      {error && <ErrorMessage error={error.message} />}
    </div>
  );
}
