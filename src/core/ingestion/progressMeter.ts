import type { IndexProgress } from '../../shared/domain/library';

/**
 * Counts files and pages through one busy period of the queue (from the first job after idle to the
 * last), and estimates the rate from pages finished while not paused. Page images, drawn after the
 * text, are counted apart as pages still to draw, and scanned pages as pages still to recognise;
 * neither moves the text's rate or ETA.
 */
export class ProgressMeter {
  private filesDone = 0;
  private filesTotal = 0;
  private pagesDone = 0;
  private pagesTotal = 0;
  private drawingsOpen = 0;
  private pagesToDraw = 0;
  private recognitionsOpen = 0;
  private pagesToRecognize = 0;
  private activeMs = 0;
  private activeSince: number | null = null;

  constructor(private readonly now: () => number = Date.now) {}

  added(pages: number): void {
    if (this.allDone()) this.reset();
    this.filesTotal++;
    this.pagesTotal += pages;
    this.activeSince ??= this.now();
  }

  finished(estimatedPages: number, actualPages: number): void {
    this.filesDone++;
    this.pagesDone += actualPages;
    this.pagesTotal += actualPages - estimatedPages;
    if (this.filesDone === this.filesTotal) this.pause();
  }

  /** A queued file that went away before it was read. */
  dropped(estimatedPages: number): void {
    this.filesTotal--;
    this.pagesTotal -= estimatedPages;
    if (this.filesDone === this.filesTotal) this.pause();
  }

  /** A file's page images, to be drawn after its text. */
  drawingAdded(pages: number): void {
    if (this.allDone()) this.reset();
    this.drawingsOpen++;
    this.pagesToDraw += pages;
  }

  /** A file's page images drawn, or given up. */
  drawingFinished(pages: number): void {
    this.drawingsOpen--;
    this.pagesToDraw = Math.max(0, this.pagesToDraw - pages);
  }

  /** A file's scanned pages, to be read by OCR after its text. */
  recognitionAdded(pages: number): void {
    if (this.allDone()) this.reset();
    this.recognitionsOpen++;
    this.pagesToRecognize += pages;
  }

  /** Some of those pages read (or given up). */
  pagesRecognized(pages: number): void {
    this.pagesToRecognize = Math.max(0, this.pagesToRecognize - pages);
  }

  /** A file's OCR done or given up; `pagesLeft` of it were not counted as read. */
  recognitionFinished(pagesLeft: number): void {
    this.recognitionsOpen--;
    this.pagesToRecognize = Math.max(0, this.pagesToRecognize - pagesLeft);
  }

  pause(): void {
    if (this.activeSince !== null) this.activeMs += this.now() - this.activeSince;
    this.activeSince = null;
  }

  resume(): void {
    if (this.filesDone < this.filesTotal) this.activeSince ??= this.now();
  }

  snapshot(paused: boolean, currentPath: string | null): IndexProgress {
    const elapsedMs = this.activeMs + (this.activeSince === null ? 0 : this.now() - this.activeSince);
    const pagesPerSecond = elapsedMs > 0 ? (this.pagesDone * 1000) / elapsedMs : 0;
    const pagesLeft = Math.max(0, this.pagesTotal - this.pagesDone);
    return {
      filesDone: this.filesDone,
      filesTotal: this.filesTotal,
      pagesDone: this.pagesDone,
      pagesTotal: Math.max(this.pagesTotal, this.pagesDone),
      pagesPerSecond,
      etaSeconds: pagesLeft === 0 ? 0 : pagesPerSecond > 0 ? pagesLeft / pagesPerSecond : null,
      pagesToDraw: this.pagesToDraw,
      pagesToRecognize: this.pagesToRecognize,
      paused,
      currentPath,
    };
  }

  private allDone(): boolean {
    return this.filesDone === this.filesTotal && this.drawingsOpen === 0 && this.recognitionsOpen === 0;
  }

  private reset(): void {
    this.filesDone = this.filesTotal = this.pagesDone = this.pagesTotal = 0;
    this.drawingsOpen = this.pagesToDraw = 0;
    this.recognitionsOpen = this.pagesToRecognize = 0;
    this.activeMs = 0;
    this.activeSince = null;
  }
}
