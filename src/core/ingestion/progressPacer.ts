/**
 * Paces progress reports: at most one every interval, and the last change is never lost (a timer
 * sends it when the interval ends). Indexing changes progress many times a second; the UI needs a few.
 */
export class ProgressPacer {
  private lastSentAt = 0;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    private readonly send: () => void,
    private readonly intervalMs = 250,
    private readonly now: () => number = Date.now,
  ) {}

  /** Reports now when the interval has passed (or `force`), else once when it ends. */
  changed(force = false): void {
    if (this.stopped) return;
    const now = this.now();
    if (force || now - this.lastSentAt >= this.intervalMs) {
      this.lastSentAt = now;
      clearTimeout(this.timer);
      this.timer = undefined;
      this.send();
    } else {
      this.timer ??= setTimeout(() => {
        this.timer = undefined;
        this.changed(true);
      }, this.intervalMs);
    }
  }

  dispose(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}
