import { useEffect, useId, useMemo } from 'react';
import type { AgentEvent } from '../../../../shared/domain/agent';
import { formatDuration, plural } from '../../lib/format';
import { buildTraceSteps, currentStepSentence, traceDuration, type TraceStep } from './traceSteps';
import { useTraceStore } from './traceStore';
import './trace.css';

const NO_EVENTS: AgentEvent[] = [];

interface StepsTimelineProps {
  runId: string;
  running: boolean;
  /** What to say while running when no step has streamed in yet (e.g. a run resumed after a reload). */
  fallbackActivity: string | null;
}

/**
 * The agent's steps for one answer: a live line while it runs, and a timeline that stays closed until
 * the user opens it, each step one sentence with its details one click away.
 */
export function StepsTimeline({ runId, running, fallbackActivity }: StepsTimelineProps) {
  const open = useTraceStore((state) => state.openRuns[runId] ?? false);
  const setOpen = useTraceStore((state) => state.setOpen);
  const load = useTraceStore((state) => state.load);
  const events = useTraceStore((state) => state.eventsByRun[runId] ?? NO_EVENTS);
  const loadError = useTraceStore((state) => state.loadErrors[runId] ?? null);
  const steps = useMemo(() => buildTraceSteps(events), [events]);
  const bodyId = useId();

  useEffect(() => {
    if (open) void load(runId);
  }, [runId, open, load]);

  const total = traceDuration(events);
  const current = currentStepSentence(steps) ?? (fallbackActivity ? `${fallbackActivity}…` : 'Starting…');

  return (
    <section className="steps" data-testid="trace" aria-label="Steps">
      {running && (
        <p className="steps__live small" role="status" data-testid="current-step">
          <span className="spinner" aria-hidden="true" />
          {current}
        </p>
      )}
      <button
        type="button"
        className="steps__toggle small"
        aria-expanded={open}
        aria-controls={bodyId}
        data-testid="trace-toggle"
        onClick={() => setOpen(runId, !open)}
      >
        <span className="disclosure" aria-hidden="true" />
        <span>{open ? 'Hide steps' : 'Show steps'}</span>
        {steps.length > 0 && (
          <span className="muted">
            {plural(steps.length, 'step')}
            {total !== null && !running && ` · ${formatDuration(total)}`}
          </span>
        )}
      </button>
      {open && (
        <div id={bodyId} className="steps__body">
          {loadError && <p className="error-message">{loadError}</p>}
          {steps.length === 0 && !loadError && <p className="muted small">No steps recorded yet.</p>}
          <ol className="trace__steps">
            {steps.map((step, index) => (
              <TraceStepRow key={step.key} step={step} live={running && index === steps.length - 1} />
            ))}
          </ol>
        </div>
      )}
    </section>
  );
}

/** A step's sentence without its closing stop, so a duration beside it never reads "…reply)., 728 ms". */
function stepSentence(step: Pick<TraceStep, 'title' | 'running'>): string {
  const title = step.title.trim().replace(/[.\s]+$/, '');
  return step.running ? `${title}…` : title;
}

function StepTime({ step }: { step: TraceStep }) {
  if (step.running || step.durationMs === null || step.durationMs <= 0) return null;
  return (
    <span className="trace-step__time" data-testid="trace-step-time">
      {formatDuration(step.durationMs)}
    </span>
  );
}

function TraceStepRow({ step, live }: { step: TraceStep; live: boolean }) {
  const hasDetail = step.reasoning !== null || step.inputs.length > 0 || step.lines.length > 0;
  const sentence = (
    <>
      <span className="trace-step__title">{stepSentence(step)}</span>
      <StepTime step={step} />
    </>
  );
  return (
    <li
      className={`trace-step trace-step--${step.tone}${live ? ' trace-step--live' : ''}`}
      data-testid="trace-step"
      data-kind={step.kind}
      data-tool={step.tool ?? undefined}
      aria-current={live ? 'step' : undefined}
    >
      {hasDetail ? (
        <details className="trace-step__details" open={step.tone === 'error'}>
          <summary className="trace-step__summary">
            <span className="disclosure" aria-hidden="true" />
            {sentence}
          </summary>
          <div className="trace-step__detail" data-testid="trace-step-detail">
            {step.reasoning && (
              <p className="trace-step__reasoning">
                <span className="muted">Why: </span>
                {step.reasoning}
              </p>
            )}
            {step.inputs.length > 0 && (
              <dl className="trace-step__inputs">
                {step.inputs.map((input) => (
                  <div key={input.label}>
                    <dt>{input.label}</dt>
                    <dd>{input.value}</dd>
                  </div>
                ))}
              </dl>
            )}
            {step.lines.length > 0 && (
              <ul className="trace-step__lines">
                {step.lines.map((line, index) => (
                  <li key={index}>{line}</li>
                ))}
              </ul>
            )}
          </div>
        </details>
      ) : (
        <div className="trace-step__summary trace-step__summary--plain">
          <span className="disclosure-spacer" aria-hidden="true" />
          {sentence}
        </div>
      )}
    </li>
  );
}
