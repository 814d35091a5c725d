import type { RunStatus } from './runReducer';

/** What each ending is called on screen, and how it looks; the same words as `quire ask`. */
const STATUS_VIEW: Record<
  Exclude<RunStatus, 'running' | 'paused'>,
  { label: string; tone: string; title: string }
> = {
  answered: {
    label: 'Verified',
    tone: 'badge--indexed',
    title: 'Checked against the documents, with the pages cited.',
  },
  unverified: {
    label: 'Not verified',
    tone: 'badge--needsPassword',
    title: 'This answer did not pass the check against the documents; read it with care.',
  },
  declined: {
    label: 'Not in your documents',
    tone: 'badge--queued',
    title: 'The documents do not cover this question.',
  },
  failed: { label: 'Failed', tone: 'badge--failed', title: 'No answer was written.' },
  cancelled: { label: 'Stopped', tone: '', title: 'Stopped before the answer was finished.' },
};

/** The status every finished answer carries; a run waiting on a clarification has none yet. */
export function AnswerStatusBadge({ status }: { status: RunStatus }) {
  if (status === 'running' || status === 'paused') return null;
  const view = STATUS_VIEW[status];
  return (
    <span
      className={`badge ${view.tone}`}
      data-testid="answer-status"
      data-status={status}
      title={view.title}
    >
      {view.label}
    </span>
  );
}
