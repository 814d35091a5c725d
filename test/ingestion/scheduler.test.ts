import { describe, expect, it } from 'vitest';
import { Scheduler, type Task } from '../../src/core/ingestion/scheduler';

/** A task that records when it starts and finishes only when the test says so. */
function gated(key: string, log: string[]) {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  let aborted = false;
  const task: Task & { open: () => void; aborted: () => boolean; droppedCalls: number } = {
    key,
    droppedCalls: 0,
    open: () => open(),
    aborted: () => aborted,
    async run(signal) {
      log.push(`start ${key}`);
      signal.addEventListener('abort', () => {
        aborted = true;
        open();
      });
      await opened;
      log.push(`end ${key}`);
    },
    dropped() {
      task.droppedCalls++;
    },
  };
  return task;
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('the ingestion scheduler', () => {
  it('runs urgent before normal before background, one at a time here, and background only when no file waits', async () => {
    const scheduler = new Scheduler(1);
    const log: string[] = [];
    const first = gated('first', log);
    scheduler.add(first, 'normal');
    const images = gated('images', log);
    const later = gated('later', log);
    const now = gated('now', log);
    scheduler.add(images, 'background');
    scheduler.add(later, 'normal');
    scheduler.add(now, 'urgent');
    expect(scheduler.add(gated('later', log), 'urgent')).toBe(false);
    for (const task of [first, now, later, images]) {
      await tick();
      task.open();
    }
    await scheduler.whenIdle();
    expect(log.filter((line) => line.startsWith('start'))).toEqual([
      'start first',
      'start now',
      'start later',
      'start images',
    ]);
    await scheduler.dispose();
  });

  it('starts an urgent task at once while background tasks hold every slot; a normal one waits for a slot', async () => {
    const scheduler = new Scheduler(1);
    const log: string[] = [];
    const drawing = gated('drawing', log);
    scheduler.add(drawing, 'background');
    await tick();
    const normal = gated('normal', log);
    const retried = gated('retried', log);
    scheduler.add(normal, 'normal');
    scheduler.add(retried, 'urgent');
    await tick();
    expect(log).toEqual(['start drawing', 'start retried']);
    retried.open();
    await tick();
    // The one slot is the drawing's again: the normal task waits for it.
    expect(log).toEqual(['start drawing', 'start retried', 'end retried']);
    drawing.open();
    await tick();
    await tick();
    expect(log.slice(3)).toEqual(['end drawing', 'start normal']);
    normal.open();
    await scheduler.whenIdle();
    await scheduler.dispose();
  });

  it('reads more files than there are background slots, and starts background work only once no file is read', async () => {
    const scheduler = new Scheduler(3, 1);
    const log: string[] = [];
    const files = ['a', 'b', 'c'].map((key) => gated(key, log));
    const drawings = ['draw a', 'draw b'].map((key) => gated(key, log));
    for (const drawing of drawings) scheduler.add(drawing, 'background');
    await tick();
    // The first drawing took a slot before any file came; the files take the other two and the next.
    for (const file of files) scheduler.add(file, 'normal');
    await tick();
    expect(log).toEqual(['start draw a', 'start a', 'start b']);
    drawings[0]!.open();
    await tick();
    await tick();
    expect(log.slice(3)).toEqual(['end draw a', 'start c']);
    files[0]!.open();
    files[1]!.open();
    await tick();
    await tick();
    // Slots are free, but a file is still being read: the second drawing waits for it.
    expect(log).not.toContain('start draw b');
    files[2]!.open();
    await tick();
    await tick();
    expect(log.at(-1)).toBe('start draw b');
    drawings[1]!.open();
    await scheduler.whenIdle();
    await scheduler.dispose();
  });

  it('puts the task the user waits for first, ahead of other urgent ones; promote leaves urgent ones in order', async () => {
    const scheduler = new Scheduler(1);
    const log: string[] = [];
    const running = gated('running', log);
    scheduler.add(running, 'normal');
    const tasks = ['a', 'b', 'c'].map((key) => gated(key, log));
    for (const task of tasks) scheduler.add(task, 'urgent');
    scheduler.promote('c');
    scheduler.putFirst('b');
    for (const task of [running, ...tasks]) {
      task.open();
      await tick();
    }
    await scheduler.whenIdle();
    expect(log.filter((line) => line.startsWith('start'))).toEqual([
      'start running',
      'start b',
      'start a',
      'start c',
    ]);
    await scheduler.dispose();
  });

  it('promotes a queued file, pauses new starts, and cancel drops what waits and aborts what runs', async () => {
    const scheduler = new Scheduler(1);
    const log: string[] = [];
    const running = gated('running', log);
    const a = gated('a', log);
    const b = gated('b', log);
    scheduler.add(running, 'normal');
    scheduler.add(a, 'normal');
    scheduler.add(b, 'normal');
    scheduler.promote('b');
    scheduler.pause();
    running.open();
    await tick();
    await tick();
    expect(log).toEqual(['start running', 'end running']);
    scheduler.resume();
    await tick();
    expect(log.at(-1)).toBe('start b');
    const dropped = scheduler.cancel();
    expect(dropped.map((task) => task.key)).toEqual(['a']);
    expect(a.droppedCalls).toBe(1);
    await scheduler.whenIdle();
    expect(b.aborted()).toBe(true);
    expect(scheduler.isIdle()).toBe(true);
    await scheduler.dispose();
  });

  it('retries a task after its delay unless it is no longer wanted, and counts the wait as busy', async () => {
    const scheduler = new Scheduler(2);
    const log: string[] = [];
    const again = gated('again', log);
    again.open();
    scheduler.retryLater(again, 'normal', 5);
    expect(scheduler.isIdle()).toBe(false);
    expect(scheduler.queued('again')).toBe(again);
    await scheduler.whenIdle();
    expect(log).toEqual(['start again', 'end again']);
    const unwanted = gated('unwanted', log);
    scheduler.retryLater(unwanted, 'normal', 5, () => false);
    await scheduler.whenIdle();
    expect(log).not.toContain('start unwanted');
    await scheduler.dispose();
  });

  it('disposes by aborting running tasks and waiting for them to return', async () => {
    const scheduler = new Scheduler(1);
    const log: string[] = [];
    const long = gated('long', log);
    scheduler.add(long, 'normal');
    scheduler.add(gated('queued', log), 'normal');
    await tick();
    await scheduler.dispose();
    expect(long.aborted()).toBe(true);
    expect(log).toEqual(['start long', 'end long']);
    expect(scheduler.add(gated('after', log), 'urgent')).toBe(false);
  });
});
