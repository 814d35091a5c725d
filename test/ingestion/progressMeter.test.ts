import { describe, expect, it } from 'vitest';
import { ProgressMeter } from '../../src/core/ingestion/progressMeter';
import type { WorkLine } from '../../src/shared/domain/library';

function clock() {
  let now = 1_000_000;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

const line = (lines: WorkLine[], kind: WorkLine['kind']) => lines.find((l) => l.kind === kind);

describe('ProgressMeter work lines', () => {
  it('gives each kind of work its own line, with an ETA only once its speed is measured', () => {
    const time = clock();
    const meter = new ProgressMeter(time.now);
    meter.added(10);
    meter.added(10);
    meter.working('text', '/library/a.pdf');
    time.advance(2_000);
    meter.finished(10, 10);
    meter.finishedWith('text', '/library/a.pdf');
    meter.drawingAdded(10);
    meter.recognitionAdded(4);

    let work = meter.snapshot(false).work;
    expect(work.map((l) => l.kind)).toEqual(['text', 'ocr', 'images']);
    // Text: 10 pages in 2 s of reading, 10 left.
    expect(line(work, 'text')).toMatchObject({
      pagesDone: 10,
      pagesTotal: 20,
      pagesPerSecond: 5,
      etaSeconds: 2,
    });
    // Nothing drawn or recognised yet: no speed, so no ETA is claimed.
    expect(line(work, 'images')).toMatchObject({ pagesDone: 0, pagesTotal: 10, etaSeconds: null });
    expect(line(work, 'ocr')).toMatchObject({ pagesDone: 0, pagesTotal: 4, etaSeconds: null });
    // The file that was read is done: its name is gone.
    expect(line(work, 'text')?.currentPath).toBeNull();
    expect(meter.snapshot(false).currentPath).toBeNull();

    // Drawing: the first file starts the clock, the second gives the speed.
    meter.working('images', '/library/a.pdf');
    meter.drawingAdded(10);
    meter.drawingFinished(4);
    time.advance(4_000);
    meter.drawingFinished(6);
    work = meter.snapshot(false).work;
    expect(line(work, 'images')).toMatchObject({ pagesDone: 10, pagesTotal: 20, pagesPerSecond: 1.5 });
    expect(line(work, 'images')?.etaSeconds).toBeCloseTo(10 / 1.5, 5);
    expect(line(work, 'images')?.currentPath).toBe('/library/a.pdf');

    // Page vectors, from the background pass.
    meter.pageVectors(8, 40);
    time.advance(2_000);
    meter.pageVectors(24, 40);
    work = meter.snapshot(false).work;
    expect(line(work, 'pageVectors')).toMatchObject({ pagesDone: 24, pagesTotal: 40, pagesPerSecond: 8 });
    expect(line(work, 'pageVectors')?.etaSeconds).toBe(2);
    meter.pageVectors(40, 40);
    expect(line(meter.snapshot(false).work, 'pageVectors')).toMatchObject({ pagesDone: 40, etaSeconds: 0 });
  });

  it('drops a finished kind once nothing else runs, and a new busy period starts from zero', () => {
    const time = clock();
    const meter = new ProgressMeter(time.now);
    meter.added(3);
    meter.working('text', '/library/b.pdf');
    time.advance(1_000);
    meter.finished(3, 3);
    meter.finishedWith('text', '/library/b.pdf');
    const done = meter.snapshot(false);
    expect(done.work).toEqual([
      { kind: 'text', pagesDone: 3, pagesTotal: 3, pagesPerSecond: 3, etaSeconds: 0, currentPath: null },
    ]);
    meter.added(5);
    meter.working('text', '/library/c.pdf');
    const next = meter.snapshot(false);
    expect(line(next.work, 'text')).toMatchObject({
      pagesDone: 0,
      pagesTotal: 5,
      currentPath: '/library/c.pdf',
    });
    expect(next.currentPath).toBe('/library/c.pdf');
  });
});
