import { Emitter } from '../common/emitter';

/**
 * `urgent`: files the user is waiting for (a folder just added, a page just opened); `normal`: every
 * other file; `background`: work that waits until no file is queued or being read (page images, OCR).
 */
export type Priority = 'urgent' | 'normal' | 'background';

export interface Task {
  /** One task per key: adding a key already queued or running adds nothing. */
  readonly key: string;
  /**
   * Does the work. The signal aborts on cancel(), on dispose() and on abort(key). Errors are the
   * task's to handle; one that escapes is logged.
   */
  run(signal: AbortSignal): Promise<void>;
  /** The task left the queue without running (cancel(), remove()). */
  dropped?(): void;
}

export interface SchedulerEvents extends Record<string, unknown> {
  /** Nothing is queued, running or waiting to be retried. */
  idle: null;
}

const ORDER: Priority[] = ['urgent', 'normal', 'background'];

/**
 * Runs tasks a few at a time, most pressing first, in the order they came within a priority.
 * Urgent tasks never wait for slots that background tasks hold: a file the user asked for starts at
 * once even while long drawings run. Pausing stops new starts; running tasks finish. A task can come
 * back after a delay (a retry).
 */
export class Scheduler {
  readonly events = new Emitter<SchedulerEvents>();
  private readonly queues: Record<Priority, Task[]> = { urgent: [], normal: [], background: [] };
  /** The queues' tasks by key: a library's start can queue ten thousand drawings, each asked for by key. */
  private readonly queuedByKey = new Map<string, Task>();
  private readonly running = new Map<string, AbortController>();
  /** Every task still returning, superseded ones included. */
  private readonly inFlight = new Set<Promise<void>>();
  /** How many of `inFlight` are background tasks. */
  private backgroundInFlight = 0;
  private readonly waiting = new Map<string, { task: Task; timer: NodeJS.Timeout }>();
  private paused = false;
  private disposed = false;

  /**
   * `concurrency`: tasks at once. `backgroundConcurrency`: background tasks at once (all slots when
   * absent); they start only once no file is queued or being read, so text is searchable first.
   */
  constructor(
    private readonly concurrency: number,
    private readonly backgroundConcurrency = concurrency,
  ) {}

  /**
   * Queues a task; false when its key is already queued or waiting to be retried. A task of a key
   * that is running is queued: it runs once the running one has returned.
   */
  add(task: Task, priority: Priority): boolean {
    if (this.disposed || this.queued(task.key)) return false;
    this.enqueue(task, priority);
    this.pump();
    return true;
  }

  has(key: string): boolean {
    return this.queued(key) !== undefined || this.running.has(key) || this.waiting.has(key);
  }

  /** The task of this key that is queued or waiting to be retried. */
  queued(key: string): Task | undefined {
    return this.waiting.get(key)?.task ?? this.queuedByKey.get(key);
  }

  isRunning(key: string): boolean {
    return this.running.has(key);
  }

  /** Moves a queued normal task to the front of the urgent ones. */
  promote(key: string): void {
    this.moveToFront(key, ['normal']);
  }

  /** Moves a queued task, urgent ones included, to the very front: the one the user waits for. */
  putFirst(key: string): void {
    this.moveToFront(key, ['urgent', 'normal']);
  }

  private moveToFront(key: string, from: ReadonlyArray<'urgent' | 'normal'>): void {
    for (const priority of from) {
      const at = this.queues[priority].findIndex((task) => task.key === key);
      if (at < 0) continue;
      const [task] = this.queues[priority].splice(at, 1);
      this.queues.urgent.unshift(task!);
      this.pump();
      return;
    }
  }

  /** Takes a queued task (or one waiting to be retried) out without running it. */
  remove(key: string): Task | undefined {
    const waiting = this.waiting.get(key);
    if (waiting) {
      clearTimeout(waiting.timer);
      this.waiting.delete(key);
      waiting.task.dropped?.();
      this.pump();
      return waiting.task;
    }
    for (const priority of ORDER) {
      const at = this.queues[priority].findIndex((task) => task.key === key);
      if (at >= 0) {
        const [task] = this.queues[priority].splice(at, 1);
        this.queuedByKey.delete(key);
        task!.dropped?.();
        this.pump();
        return task;
      }
    }
    return undefined;
  }

  /** Aborts the running task of this key, if any. */
  abort(key: string): void {
    this.running.get(key)?.abort();
  }

  /** Runs the task again after `delayMs`, unless the scheduler is disposed or `stillWanted()` says no. */
  retryLater(task: Task, priority: Priority, delayMs: number, stillWanted: () => boolean = () => true): void {
    if (this.disposed) return;
    const timer = setTimeout(() => {
      this.waiting.delete(task.key);
      if (!this.disposed && stillWanted()) this.enqueue(task, priority);
      this.pump();
    }, delayMs);
    this.waiting.set(task.key, { task, timer });
  }

  pause(): void {
    this.paused = true;
  }

  resume(): void {
    this.paused = false;
    this.pump();
  }

  get isPaused(): boolean {
    return this.paused;
  }

  /** Drops every queued task (each hears `dropped()`) and aborts those running; resumes if paused. */
  cancel(): Task[] {
    const dropped = ORDER.flatMap((priority) => this.queues[priority].splice(0));
    this.queuedByKey.clear();
    for (const task of dropped) task.dropped?.();
    for (const controller of this.running.values()) controller.abort();
    this.paused = false;
    this.pump();
    return dropped;
  }

  isIdle(): boolean {
    return (
      ORDER.every((p) => this.queues[p].length === 0) && this.inFlight.size === 0 && this.waiting.size === 0
    );
  }

  /** Resolves once nothing is queued, running or waiting to be retried. */
  async whenIdle(): Promise<void> {
    if (this.isIdle()) return;
    await new Promise<void>((resolve) => {
      const off = this.events.on('idle', () => {
        off();
        resolve();
      });
    });
  }

  /** Resolves once no task is running (while paused, none starts after). */
  async whenNothingRuns(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  /** Aborts everything, forgets what is queued and waits until running tasks have returned. */
  async dispose(): Promise<void> {
    this.disposed = true;
    for (const { timer } of this.waiting.values()) clearTimeout(timer);
    this.waiting.clear();
    for (const priority of ORDER) this.queues[priority].length = 0;
    this.queuedByKey.clear();
    for (const controller of this.running.values()) controller.abort();
    await Promise.all([...this.inFlight]);
    this.events.emit('idle', null);
    this.events.clear();
  }

  private pump(): void {
    while (!this.paused && !this.disposed) {
      const next = this.next();
      if (!next) break;
      const background = next.priority === 'background';
      const done = this.start(next.task);
      this.inFlight.add(done);
      if (background) this.backgroundInFlight++;
      void done.finally(() => {
        this.inFlight.delete(done);
        if (background) this.backgroundInFlight--;
        this.pump();
      });
    }
    if (this.isIdle() && !this.disposed) this.events.emit('idle', null);
  }

  private enqueue(task: Task, priority: Priority): void {
    this.queues[priority].push(task);
    this.queuedByKey.set(task.key, task);
  }

  /** The task to start now, taken off its queue. */
  private next(): { task: Task; priority: Priority } | undefined {
    const next = this.nextInLine();
    if (next) this.queuedByKey.delete(next.task.key);
    return next;
  }

  /** The task to start now, if a slot is free for it: urgent ones count only non-background slots. */
  private nextInLine(): { task: Task; priority: Priority } | undefined {
    const foreground = this.inFlight.size - this.backgroundInFlight;
    if (this.queues.urgent.length > 0 && foreground < this.concurrency) {
      return { task: this.queues.urgent.shift()!, priority: 'urgent' };
    }
    if (this.inFlight.size >= this.concurrency) return undefined;
    const normal = this.queues.normal.shift();
    if (normal) return { task: normal, priority: 'normal' };
    if (foreground > 0 || this.queues.urgent.length > 0) return undefined;
    if (this.backgroundInFlight >= this.backgroundConcurrency) return undefined;
    const background = this.queues.background.shift();
    return background ? { task: background, priority: 'background' } : undefined;
  }

  private async start(task: Task): Promise<void> {
    const controller = new AbortController();
    // A task superseded by a newer one of its key is aborted first (see abort()); it may still be returning.
    this.running.get(task.key)?.abort();
    this.running.set(task.key, controller);
    try {
      await task.run(controller.signal);
    } catch (error) {
      console.error(`quire: ${task.key} failed`, error);
    } finally {
      if (this.running.get(task.key) === controller) this.running.delete(task.key);
    }
  }
}
