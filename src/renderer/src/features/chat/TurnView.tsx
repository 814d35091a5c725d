import { useMemo } from 'react';
import { ErrorMessage } from '../../components/ErrorMessage';
import { AnswerStatusBadge } from './AnswerStatusBadge';
import { AnswerText } from './AnswerText';
import { claimsByMarker } from './answerSegments';
import { StepsTimeline } from '../trace/StepsTimeline';
import { useChatStore, type TurnView as Turn } from './chatStore';
import { CitationChip } from './CitationChip';
import { NoModelStep, useNoAnswerModel } from './NoModelStep';
import { ClarificationPrompt } from './ClarificationPrompt';
import { PlanReview } from './PlanReview';
import { CopyAnswerButton } from './TakeAway';
import { WebProposals } from './WebProposals';

interface TurnViewProps {
  turn: Turn;
  isLatest: boolean;
}

const ENDINGS = { cancelled: 'Stopped before the answer was finished.', failed: 'The run failed.' } as const;

export function TurnView({ turn, isLatest }: TurnViewProps) {
  const run = useChatStore((state) => state.runs[turn.runId]);
  const running = run?.status === 'running';
  const answer = run?.answer ?? '';
  const claims = useMemo(() => claimsByMarker(answer), [answer]);
  const noModel = useNoAnswerModel();

  return (
    <article
      className="turn"
      data-testid="turn"
      data-run-id={turn.runId}
      data-status={run?.status ?? 'running'}
    >
      <div className="turn__head">
        <p className="turn__question">{turn.question}</p>
        {run && <AnswerStatusBadge status={run.status} />}
      </div>
      <div
        className="answer"
        data-testid="answer"
        data-status={run?.status ?? 'running'}
        aria-live={isLatest && running ? 'polite' : undefined}
        aria-busy={running}
      >
        {run && run.answer.length > 0 && (
          <AnswerText text={run.answer} citations={run.citations} streaming={running && !run.final} />
        )}
        {run && (run.status === 'cancelled' || run.status === 'failed') && (
          <p className="answer__ending small">{ENDINGS[run.status]}</p>
        )}
        {run?.status === 'paused' && run.clarification && (
          <ClarificationPrompt runId={turn.runId} {...run.clarification} />
        )}
        {run?.status === 'paused' && run.planReview && (
          <PlanReview runId={turn.runId} subQuestions={run.planReview.subQuestions} />
        )}
        {run?.error && <ErrorMessage error={run.error} />}
        {isLatest && run?.status === 'failed' && noModel && <NoModelStep />}
      </div>
      {run && run.insufficiencies.length > 0 && (
        <div className="insufficiencies" data-testid="insufficiencies">
          <p className="insufficiencies__title">
            {run.status === 'unverified'
              ? 'Why this answer is not verified:'
              : 'The documents do not fully cover this:'}
          </p>
          <ul>
            {run.insufficiencies.map((gap, index) => (
              <li key={index}>{gap}</li>
            ))}
          </ul>
        </div>
      )}
      {run && run.proposals.length > 0 && <WebProposals proposals={run.proposals} />}
      {run && run.citations.length > 0 && (
        <div className="citations" role="group" aria-label="Sources" data-testid="sources">
          {run.citations.map((citation) => (
            <CitationChip
              key={citation.marker}
              citation={citation}
              claim={claims.get(citation.marker) ?? null}
            />
          ))}
        </div>
      )}
      <p className="turn__searched muted small" data-testid="turn-searched">
        Searched: {turn.searched ?? 'the whole library'}
        {run && run.status !== 'running' && run.answer.length > 0 && <CopyAnswerButton runId={turn.runId} />}
      </p>
      <StepsTimeline runId={turn.runId} running={running} fallbackActivity={run?.activity ?? null} />
    </article>
  );
}
