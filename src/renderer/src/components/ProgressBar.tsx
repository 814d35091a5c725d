interface ProgressBarProps {
  /** 0-100; null draws an indeterminate bar. */
  value: number | null;
  label: string;
  testId?: string;
  tone?: 'accent' | 'muted';
}

export function ProgressBar({ value, label, testId, tone = 'accent' }: ProgressBarProps) {
  const rounded = value === null ? undefined : Math.round(value);
  return (
    <div
      className={`progress-bar progress-bar--${tone}${value === null ? ' progress-bar--indeterminate' : ''}`}
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={rounded}
      data-testid={testId}
    >
      {/* Scaled, not sized: a moving width lays out and repaints the page on every frame of it. */}
      <div
        className="progress-bar__fill"
        style={
          value === null ? undefined : { transform: `scaleX(${Math.min(100, Math.max(0, value)) / 100})` }
        }
      />
    </div>
  );
}
