import { hostname } from 'node:os';
import { afterAll, describe, expect, it } from 'vitest';
import { LocalWriters } from '../../src/core/location/localWriters';
import { WriterLease, type LeaseHolder, type LeaseSlot } from '../../src/core/location/writerLease';
import { tempDir } from '../helpers/shared';

/** The lease record in memory, with the compare-and-set the real slots make. */
function memorySlot(): LeaseSlot & { holder(): LeaseHolder | null } {
  let record: { holder: LeaseHolder; version: string } | null = null;
  let versions = 0;
  return {
    holder: () => record?.holder ?? null,
    async read() {
      return record;
    },
    async swap(holder, expected) {
      if ((record?.version ?? null) !== expected) return null;
      record = { holder, version: String(++versions) };
      return { version: record.version };
    },
    async clear(expected) {
      if (record?.version === expected) record = null;
    },
  };
}

const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
});

async function notesFolder(): Promise<string> {
  const dir = await tempDir();
  cleanups.push(dir.cleanup);
  return dir.path;
}

/** A clock the test moves. */
function clock(start = 1_000_000): { now: () => number; advance: (ms: number) => void } {
  let time = start;
  return { now: () => time, advance: (ms) => (time += ms) };
}

describe('the writer lease', () => {
  it('a live writer elsewhere with this host name and a process number not running here keeps its lease until it expires', async () => {
    const slot = memorySlot();
    const time = clock();
    // The other machine's writer: same host name, a process number this machine does not run.
    const elsewhere: LeaseHolder = { id: 'a1b2c3', host: hostname(), pid: 999_999, renewedAt: time.now() };
    await slot.swap(elsewhere, null);
    const here = new LocalWriters({ folder: await notesFolder(), isAlive: () => false });
    const options = { localWriters: here, now: time.now, staleAfterMs: 90_000 };
    await expect(WriterLease.take(slot, 's3://b/p', options)).rejects.toThrow(/Another writer is indexing/);
    time.advance(89_000);
    await expect(WriterLease.take(slot, 's3://b/p', options)).rejects.toThrow(/Another writer is indexing/);
    // Not renewed past the stale time: now it is taken over.
    time.advance(2_000);
    const lease = await WriterLease.take(slot, 's3://b/p', options);
    expect(slot.holder()?.id).not.toBe(elsewhere.id);
    await lease.release();
    expect(slot.holder()).toBeNull();
  });

  it('a writer of this machine whose process ended is replaced at once, but not from another PID namespace', async () => {
    const folder = await notesFolder();
    const time = clock();
    const running = new Set([4242]);
    const isAlive = (pid: number) => running.has(pid);
    // A first writer of this machine (process 4242) takes the lease and notes its id here.
    const slot = memorySlot();
    const first = new LocalWriters({ folder, isAlive, processSpace: () => 'space-1', pid: 4242 });
    await WriterLease.take(slot, 's3://b/p', { localWriters: first, now: time.now });
    const firstId = slot.holder()!.id;
    const here = new LocalWriters({ folder, isAlive, processSpace: () => 'space-1' });
    // Another PID namespace of the same machine: 4242 means nothing there, whatever its liveness check says.
    const namespaced = new LocalWriters({ folder, isAlive: () => false, processSpace: () => 'space-2' });
    await expect(WriterLease.take(slot, 's3://b/p', { localWriters: here, now: time.now })).rejects.toThrow(
      /Another writer is indexing/,
    );
    running.delete(4242); // killed -9: it never released
    await expect(
      WriterLease.take(slot, 's3://b/p', { localWriters: namespaced, now: time.now }),
    ).rejects.toThrow(/Another writer is indexing/);
    const second = await WriterLease.take(slot, 's3://b/p', { localWriters: here, now: time.now });
    expect(slot.holder()!.id).not.toBe(firstId);
    // The dead writer's note went with its lease.
    expect(here.ended(firstId)).toBe(false);
    await second.release();
    expect(slot.holder()).toBeNull();
  });

  it('a note of this machine names its process and space; an unknown id is never ended', async () => {
    const folder = await notesFolder();
    const writers = new LocalWriters({ folder, isAlive: () => false, processSpace: () => 'space-1' });
    expect(writers.ended('never-noted')).toBe(false);
    writers.noteMine('0f0e-1234');
    // Written by this process: it is running, so not ended.
    expect(writers.ended('0f0e-1234')).toBe(false);
    writers.forget('0f0e-1234');
    expect(writers.ended('0f0e-1234')).toBe(false);
  });
});
