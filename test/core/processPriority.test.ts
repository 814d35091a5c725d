import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BELOW_NORMAL, prioritiesPerThread } from '../../src/core/common/processPriority';

const probe = join(import.meta.dirname, 'priorityProbe.ts');

interface ProbeReport {
  main: number;
  before: number;
  beforeLowered: boolean | null;
  after: number;
  threads: number[];
  change: { priority: number; failed: string | null } | null;
}

function runProbe(mode: 'thread' | 'process'): ProbeReport {
  const run = spawnSync(process.execPath, ['--import', 'tsx', probe, mode], {
    encoding: 'utf8',
    timeout: 60_000,
  });
  if (run.status !== 0) throw new Error(`priority probe failed: ${run.stderr}`);
  return JSON.parse(run.stdout.trim().split('\n').at(-1)!) as ProbeReport;
}

describe.runIf(prioritiesPerThread)('indexing below the window: CPU priority', () => {
  it('a document worker lowers its own thread and no other', () => {
    const report = runProbe('thread');
    expect(report.beforeLowered).toBe(true);
    expect(report.before).toBe(BELOW_NORMAL);
    expect(report.main).toBe(0);
    // A thread the main thread starts keeps the main thread's priority.
    expect(report.after).toBe(0);
  });

  it('a process that is all engine lowers every thread, and threads it starts later are as low', () => {
    const report = runProbe('process');
    expect(report.change).toEqual({ priority: BELOW_NORMAL, failed: null });
    expect(report.main).toBe(BELOW_NORMAL);
    expect(report.before).toBe(BELOW_NORMAL);
    expect(report.after).toBe(BELOW_NORMAL);
    expect(new Set(report.threads)).toEqual(new Set([BELOW_NORMAL]));
  });
});

if (!prioritiesPerThread)
  console.log('processPriority.test: skipped, this system keeps one priority per process, not per thread');
