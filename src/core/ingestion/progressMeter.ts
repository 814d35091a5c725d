import type { IndexProgress, WorkKind, WorkLine } from '../../shared/domain/library';
import { WorkRate } from './workRate';

/** Bytes per page assumed for a PDF not read yet (about the middle of what the corpus shows). */
const PDF_BYTES_PER_PAGE = 60_000;

/**
 * Pages a queued file is expected to have: its count once read, else a guess from its size (a file
 * is not opened to count its pages before it is read). The meter corrects the total as files finish.
 */
export function expectedPages(doc: { kind: string; bytes: number; pages: number | null }): number {
  if (doc.pages !== null) return doc.pages;
  return doc.kind === 'pdf' ? Math.max(1, Math.round(doc.bytes / PDF_BYTES_PER_PAGE)) : 1;
}

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
  private readonly drawn: WorkRate;
  private readonly recognized: WorkRate;
  private readonly embedded: WorkRate;
  private pageVectorsLeft = 0;
  private vectorsDoneInPass = 0;
  /** What each kind of work is on now; cleared when that file is done. */
  private readonly current = new Map<WorkKind, string>();

  constructor(private readonly now: () => number = Date.now) {
    this.drawn = new WorkRate(now);
    this.recognized = new WorkRate(now);
    this.embedded = new WorkRate(now);
  }

  /** `kind` of work started on the file at `path` (null: it finished with it). */
  working(kind: WorkKind, path: string | null): void {
    if (path === null) this.current.delete(kind);
    else this.current.set(kind, path);
  }

  /** `kind` of work is done with the file at `path`, unless it already moved on to another. */
  finishedWith(kind: WorkKind, path: string): void {
    if (this.current.get(kind) === path) this.working(kind, null);
  }

  /** Page vectors embedded in the background: `done` of `total` in the current pass. */
  pageVectors(done: number, total: number): void {
    // A new pass: its count starts again, and after a finished pass so does its speed.
    if (done < this.vectorsDoneInPass) {
      if (this.pageVectorsLeft === 0) this.embedded.reset();
      this.vectorsDoneInPass = 0;
    }
    this.embedded.add(done - this.vectorsDoneInPass);
    this.vectorsDoneInPass = done;
    this.pageVectorsLeft = Math.max(0, total - done);
    if (this.pageVectorsLeft === 0) this.current.delete('pageVectors');
  }

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
    this.drawn.add(Math.min(pages, this.pagesToDraw));
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
    this.recognized.add(Math.min(pages, this.pagesToRecognize));
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

  snapshot(paused: boolean): IndexProgress {
    const elapsedMs = this.activeMs + (this.activeSince === null ? 0 : this.now() - this.activeSince);
    const pagesPerSecond = elapsedMs > 0 ? (this.pagesDone * 1000) / elapsedMs : 0;
    const pagesLeft = Math.max(0, this.pagesTotal - this.pagesDone);
    const work = this.workLines(pagesPerSecond);
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
      stopped: null,
      // A file some work is on now (text first); none once every file in hand is done.
      currentPath: work.find((line) => line.currentPath !== null)?.currentPath ?? null,
      work,
    };
  }

  /** A line for each kind of work with pages left, or with pages done while others still run. */
  private workLines(textRate: number): WorkLine[] {
    const textLeft = Math.max(0, this.pagesTotal - this.pagesDone);
    const lines: WorkLine[] = [
      this.line(
        'text',
        this.pagesDone,
        textLeft,
        textRate,
        textLeft === 0 ? 0 : textRate > 0 ? textLeft / textRate : null,
      ),
      this.line(
        'ocr',
        this.recognized.pagesDone,
        this.pagesToRecognize,
        this.recognized.pagesPerSecond(),
        this.recognized.etaSeconds(this.pagesToRecognize),
      ),
      this.line(
        'images',
        this.drawn.pagesDone,
        this.pagesToDraw,
        this.drawn.pagesPerSecond(),
        this.drawn.etaSeconds(this.pagesToDraw),
      ),
      this.line(
        'pageVectors',
        this.embedded.pagesDone,
        this.pageVectorsLeft,
        this.embedded.pagesPerSecond(),
        this.embedded.etaSeconds(this.pageVectorsLeft),
      ),
    ];
    const busy = lines.some((line) => line.pagesDone < line.pagesTotal);
    return lines.filter((line) => line.pagesTotal > 0 && (busy || line.kind === 'text'));
  }

  private line(kind: WorkKind, done: number, left: number, rate: number, eta: number | null): WorkLine {
    return {
      kind,
      pagesDone: done,
      pagesTotal: done + left,
      pagesPerSecond: rate,
      etaSeconds: eta,
      currentPath: left > 0 ? (this.current.get(kind) ?? null) : null,
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
    this.drawn.reset();
    this.recognized.reset();
    this.current.clear();
  }
}
