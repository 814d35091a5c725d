/**
 * The measured speed of one kind of work (OCR, drawing, embedding page vectors): pages finished per
 * second since the first batch of it finished. That first batch only starts the clock, because the
 * time it took is not known (it may have waited behind other work), so no rate is claimed before a
 * second batch arrives.
 */
export class WorkRate {
  private done = 0;
  private clockStart: number | null = null;
  private doneAtStart = 0;

  constructor(private readonly now: () => number) {}

  /** `pages` more finished. */
  add(pages: number): void {
    if (pages <= 0) return;
    this.done += pages;
    if (this.clockStart === null) {
      this.clockStart = this.now();
      this.doneAtStart = this.done;
    }
  }

  get pagesDone(): number {
    return this.done;
  }

  pagesPerSecond(): number {
    if (this.clockStart === null) return 0;
    const seconds = (this.now() - this.clockStart) / 1000;
    const measured = this.done - this.doneAtStart;
    return seconds > 0 && measured > 0 ? measured / seconds : 0;
  }

  /** Seconds left for `left` pages at the measured speed; null until there is one. */
  etaSeconds(left: number): number | null {
    if (left <= 0) return 0;
    const rate = this.pagesPerSecond();
    return rate > 0 ? left / rate : null;
  }

  reset(): void {
    this.done = 0;
    this.clockStart = null;
    this.doneAtStart = 0;
  }
}
