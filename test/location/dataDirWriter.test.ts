import { readFile, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fileLeaseSlot, WRITER_LOCK_FILE } from '../../src/core/location/dataDirWriter';
import { LocalWriters } from '../../src/core/location/localWriters';
import { WriterLease, type LeaseHolder } from '../../src/core/location/writerLease';
import { tempDir } from '../helpers/shared';

const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
});

async function folder(): Promise<string> {
  const dir = await tempDir('quire-lock-');
  cleanups.push(dir.cleanup);
  return dir.path;
}

function clock(start = 1_000_000): { now: () => number; advance: (ms: number) => void } {
  let time = start;
  return { now: () => time, advance: (ms) => (time += ms) };
}

/** The data folder's rule: held while its process runs here; let go only when gone AND late. */
const LOCAL = { heldWhileRunning: true, staleAfterMs: 15_000, renewEveryMs: 60_000 };

describe('the local writer lock (a lease in a file of the data folder)', () => {
  it('a holder whose process still runs here keeps the lock however late its renewal', async () => {
    const dir = await folder();
    const slot = fileLeaseSlot(join(dir, WRITER_LOCK_FILE));
    const time = clock();
    const notes = await folder();
    const alive = new Set<number>([4242]);
    const writers = (pid: number) =>
      new LocalWriters({ folder: notes, pid, isAlive: (n) => alive.has(n), processSpace: () => 'here' });
    const first = await WriterLease.take(slot, dir, {
      ...LOCAL,
      now: time.now,
      localWriters: writers(4242),
      name: 'first',
    });
    time.advance(600_000);
    const second = { ...LOCAL, now: time.now, localWriters: writers(5151) };
    await expect(WriterLease.take(slot, dir, second)).rejects.toThrow(/Another writer/);
    // Its process ended: let go, since its renewal is late too.
    alive.delete(4242);
    const taken = await WriterLease.take(slot, dir, second);
    const record = JSON.parse(await readFile(join(dir, WRITER_LOCK_FILE), 'utf8')) as LeaseHolder;
    expect(record.id).not.toBe('');
    await taken.release();
    await first.release();
  });

  it('a holder whose process ended is let go only once its renewal is stale', async () => {
    const dir = await folder();
    const slot = fileLeaseSlot(join(dir, WRITER_LOCK_FILE));
    const time = clock();
    const notes = await folder();
    const crashed = new LocalWriters({
      folder: notes,
      pid: 7,
      isAlive: () => true,
      processSpace: () => 'here',
    });
    await WriterLease.take(slot, dir, { ...LOCAL, now: time.now, localWriters: crashed });
    const next = new LocalWriters({
      folder: notes,
      pid: 8,
      isAlive: () => false,
      processSpace: () => 'here',
    });
    const options = { ...LOCAL, now: time.now, localWriters: next };
    await expect(WriterLease.take(slot, dir, options)).rejects.toThrow();
    time.advance(14_000);
    await expect(WriterLease.take(slot, dir, options)).rejects.toThrow();
    time.advance(2_000);
    const lease = await WriterLease.take(slot, dir, options);
    await lease.release();
    expect(await slot.read()).toBeNull();
  });

  it('a holder on another host goes stale by time alone', async () => {
    const dir = await folder();
    const path = join(dir, WRITER_LOCK_FILE);
    const time = clock();
    const elsewhere: LeaseHolder = {
      id: 'abc',
      host: `not-${hostname()}`,
      pid: process.pid,
      renewedAt: time.now(),
    };
    await writeFile(path, JSON.stringify(elsewhere));
    const options = { ...LOCAL, now: time.now, localWriters: new LocalWriters({ folder: await folder() }) };
    await expect(WriterLease.take(fileLeaseSlot(path), dir, options)).rejects.toThrow();
    time.advance(16_000);
    const lease = await WriterLease.take(fileLeaseSlot(path), dir, options);
    await lease.release();
  });

  it('of two writers taking a free lock at once, exactly one gets it', async () => {
    const dir = await folder();
    const path = join(dir, WRITER_LOCK_FILE);
    const notes = await folder();
    const results = await Promise.allSettled(
      Array.from({ length: 6 }, () =>
        WriterLease.take(fileLeaseSlot(path), dir, {
          ...LOCAL,
          localWriters: new LocalWriters({ folder: notes }),
        }),
      ),
    );
    const won = results.filter((result) => result.status === 'fulfilled');
    expect(won).toHaveLength(1);
    for (const result of won) await result.value.release();
  });
});
