import { isDiskFull } from '../common/diskSpace';
import type { Maintenance } from '../index/maintenance/indexMaintenance';

/**
 * After a batch of writes: compacts the tables, folds new chunks into the full-text index (new rows
 * are not all found until then) and drops old versions, so the disk does not grow with every write.
 * Runs a while after the queue goes idle, never while it is busy.
 */
export class IndexTidying {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> = Promise.resolve();
  private written = false;
  private stopped = false;

  constructor(
    private readonly maintenance: Pick<Maintenance, 'optimize'>,
    private readonly delayMs: number,
    private readonly queueIdle: () => boolean,
  ) {}

  /** Something was written since the last tidying. */
  noteWrite(): void {
    this.written = true;
  }

  /** The queue went idle: tidy after the delay, if it is still idle then. */
  onIdle(): void {
    if (!this.written) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (!this.stopped && this.queueIdle()) void this.now();
    }, this.delayMs);
  }

  /** Tidies now if anything was written, else waits for a tidying under way. */
  whenTidy(): Promise<void> {
    return this.written ? this.now() : this.running;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  private now(): Promise<void> {
    clearTimeout(this.timer);
    this.written = false;
    this.running = this.running
      .then(() => this.maintenance.optimize())
      .then(() => undefined)
      .catch((error: unknown) => {
        // Tidying needs room to write the tidier copy; it is tried again after the next batch.
        if (isDiskFull(error)) console.error('quire: the disk is full: the index was not tidied this time.');
        else console.error('quire: tidying the index failed', error);
      });
    return this.running;
  }
}
