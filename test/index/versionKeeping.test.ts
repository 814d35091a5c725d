/**
 * Old table versions are removed by when they were replaced, not by when they were made: a reader
 * (a shared library's desktop) reading the version that was the latest a moment ago keeps reading it.
 */
import { connect } from '@lancedb/lancedb';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { optimizeKeepingReaders, removableBefore } from '../../src/core/index/maintenance/versionKeeping';
import { tempDir } from '../helpers/shared';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

const at = (seconds: number) => ({ version: seconds, timestamp: new Date(seconds * 1000) });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('keeping the versions readers may read', () => {
  it('keeps the version that was the latest at the horizon and every later one', () => {
    const versions = [at(0), at(10), at(20), at(90)];
    // At 100 s with a 60 s keep, version 20 was the latest at 40 s: 0 and 10 may go.
    expect(removableBefore(versions, 100_000, 60_000).getTime()).toBe(20_000 - 1);
    // Nothing is old enough yet: nothing goes.
    expect(removableBefore(versions, 30_000, 60_000).getTime()).toBe(-1);
    expect(removableBefore([], 30_000, 60_000).getTime()).toBe(30_000 - 1);
  });

  it('a reader on the version replaced a moment ago still reads it after the writer optimizes', async () => {
    const dir = await tempDir();
    cleanups.push(dir.cleanup);
    const uri = join(dir.path, 'db');
    const writerDb = await connect(uri, { readConsistencyInterval: 0 });
    const readerDb = await connect(uri, { readConsistencyInterval: 0 });
    cleanups.unshift(async () => {
      writerDb.close();
      readerDb.close();
    });
    const written = await writerDb.createTable('chunks', [{ id: 1, text: 'first' }]);
    await sleep(600);
    await written.add([{ id: 2, text: 'second' }]);
    await written.add([{ id: 3, text: 'third' }]);
    const readerTable = await readerDb.openTable('chunks');
    const readerVersion = await readerTable.version();
    // Old by age, still the latest: LanceDB alone would remove it the moment it is replaced.
    await sleep(600);
    await written.add([{ id: 4, text: 'fourth' }]);
    const first = await optimizeKeepingReaders(written, {
      keepReplacedMs: 300,
      driftMs: 100,
      deleteUnverified: true,
    });
    expect(first.prune.oldVersionsRemoved).toBeGreaterThan(0);
    await readerTable.checkout(readerVersion);
    expect(await readerTable.countRows()).toBe(3);
    await readerTable.checkoutLatest();
    expect(await readerTable.countRows()).toBe(4);

    // Once it has been replaced for longer than the keep, it goes.
    await sleep(600);
    await optimizeKeepingReaders(written, { keepReplacedMs: 300, driftMs: 100, deleteUnverified: true });
    const left = (await written.listVersions()).map((v) => v.version);
    expect(left).not.toContain(readerVersion);
    await expect(readerTable.checkout(readerVersion)).rejects.toThrow();
  });
});
