import type { IndexProgress, WorkKind, WorkLine } from '../../shared/domain/library';

const KIND_NAMES: Record<WorkKind, string> = {
  text: 'text',
  ocr: 'OCR',
  images: 'page images',
  pageVectors: 'page vectors',
};

/** "text 12/30 pages, 4.1 pages/s, ETA 5 s": a rate and ETA only once measured. */
export function workLineText(line: WorkLine): string {
  const parts = [`${KIND_NAMES[line.kind]} ${line.pagesDone}/${line.pagesTotal} pages`];
  if (line.pagesDone < line.pagesTotal) {
    if (line.pagesPerSecond > 0) parts.push(`${line.pagesPerSecond.toFixed(1)} pages/s`);
    parts.push(line.etaSeconds === null ? 'measuring speed' : `ETA ${Math.ceil(line.etaSeconds)} s`);
  }
  return parts.join(', ');
}

/** One line for the whole of indexing: files, then each kind of work. */
export function progressText(progress: IndexProgress): string {
  const files = `${progress.filesDone}/${progress.filesTotal} files`;
  // The reason itself ends the command, in full.
  const stopped = progress.stopped === null ? [] : ['stopped'];
  return [files, ...progress.work.map(workLineText), ...stopped].join(' · ');
}

export interface ProgressOutput {
  write(text: string): unknown;
  isTTY?: boolean;
}

/**
 * Prints indexing progress on stderr: on a terminal, one line rewritten in place; in a pipe or a
 * log, a plain line at the first report and then at most every `everyMs`, and the last state at the end.
 */
export class ProgressPrinter {
  private lastPrintedAt: number | null = null;
  private latest: IndexProgress | null = null;
  /** The last line printed: a report that says the same again (the queue settling) is not printed twice. */
  private lastText: string | null = null;

  constructor(
    private readonly out: ProgressOutput,
    private readonly everyMs = 3_000,
    private readonly now: () => number = Date.now,
  ) {}

  update(progress: IndexProgress): void {
    this.latest = progress;
    if (this.out.isTTY) {
      this.out.write(`\r${progressText(progress)}\x1b[K`);
      return;
    }
    const now = this.now();
    if (this.lastPrintedAt === null || now - this.lastPrintedAt >= this.everyMs) this.print(now);
  }

  /** Ends the progress output: a newline on a terminal, the final state in a pipe. */
  finish(): void {
    if (this.out.isTTY) {
      if (this.latest) this.out.write('\n');
    } else {
      this.print(this.now());
    }
  }

  private print(now: number): void {
    if (!this.latest) return;
    const text = progressText(this.latest);
    if (text === this.lastText) return;
    this.out.write(`indexing: ${text}\n`);
    this.lastPrintedAt = now;
    this.lastText = text;
  }
}
