import { randomUUID } from 'node:crypto';
import { mkdir, open, readFile, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { QuireError } from '../../shared/errors';
import { LocalWriters } from './localWriters';
import { WriterLease, type LeaseHolder, type LeaseSlot } from './writerLease';

/** What the desktop app calls itself as the writer of its data folder. */
export const APP_WRITER = 'The Quire app';

/** The lock file in a data folder: the writer that holds it, renewed while it runs. */
export const WRITER_LOCK_FILE = 'writer.lock';

/** How often a local writer renews its lock. */
const RENEW_EVERY_MS = 5_000;
/**
 * A lock whose process is gone and that was not renewed for this long is let go: short, so a crashed
 * writer (kill -9) blocks the next one only briefly; a writer whose process still runs is never let go.
 */
export const LOCAL_STALE_AFTER_MS = 15_000;

export interface DataDirWriterOptions {
  /** What this writer is, as a second one is told ("The Quire app", "quire index"). */
  name: string;
  /** Where this machine notes its own writers (tests); the system's temporary folder by default. */
  localWriters?: LocalWriters;
}

/**
 * Takes the one writer's place on a local data folder, or refuses with who holds it. A second writer
 * would remove content the first is still writing (content no document row points to yet) and race
 * it on LanceDB's commits, so the app, `quire index`, `serve` and the commands that change the
 * library each hold this while they run; commands that only read open the folder as readers. A
 * holder whose process ended on this machine is waited for (at most LOCAL_STALE_AFTER_MS), not refused.
 */
export async function takeDataDirWriter(
  dataDir: string,
  options: DataDirWriterOptions,
): Promise<WriterLease> {
  await mkdir(dataDir, { recursive: true });
  const slot = fileLeaseSlot(join(dataDir, WRITER_LOCK_FILE));
  const localWriters = options.localWriters ?? new LocalWriters();
  const take = () =>
    WriterLease.take(slot, dataDir, {
      renewEveryMs: RENEW_EVERY_MS,
      staleAfterMs: LOCAL_STALE_AFTER_MS,
      heldWhileRunning: true,
      name: options.name,
      localWriters,
      refusal: (holder, ago) => refusal(dataDir, holder, ago),
    });
  try {
    return await take();
  } catch (error) {
    // A writer of this machine that crashed (its process is gone) is waited out, not reported: its
    // lock goes stale within LOCAL_STALE_AFTER_MS, and an app reopened after a crash should just open.
    const found = await slot.read();
    if (!found || !localWriters.ended(found.holder.id)) throw error;
    const wait = found.holder.renewedAt + LOCAL_STALE_AFTER_MS + 100 - Date.now();
    await sleep(Math.min(Math.max(wait, 0), LOCAL_STALE_AFTER_MS + 100));
    return take();
  }
}

function refusal(dataDir: string, holder: LeaseHolder, secondsAgo: number): QuireError {
  const where = holder.host === hostname() ? `pid ${holder.pid}` : `pid ${holder.pid} on ${holder.host}`;
  const stale = LOCAL_STALE_AFTER_MS / 1000;
  const who =
    holder.name === APP_WRITER
      ? `${APP_WRITER} has this library open (${where}): do this there, or quit it first.`
      : `${holder.name ?? 'Another Quire process'} is writing this library (${where}): wait until it ends, or stop it first.`;
  return new QuireError(
    'already_exists',
    `${who} One process writes ${dataDir} at a time; searching and listing read beside it. ` +
      `A writer that stopped without closing is let go ${stale} s after it was last seen (${secondsAgo} s ago).`,
  );
}

/**
 * The lease as a file, changed only under a short guard file (created exclusively), so that reading,
 * comparing and replacing it is one step for every process of this machine; the record is replaced by
 * a rename, never seen half-written.
 */
export function fileLeaseSlot(path: string): LeaseSlot {
  const current = async (): Promise<string | null> =>
    readFile(path, 'utf8').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return null;
      throw error;
    });
  const guarded = async <T>(step: () => Promise<T>): Promise<T> => {
    const release = await takeGuard(`${path}.guard`);
    try {
      return await step();
    } finally {
      await release();
    }
  };
  return {
    async read() {
      const text = await current();
      return text === null ? null : { holder: parseHolder(text), version: text };
    },
    swap: (holder, expected) =>
      guarded(async () => {
        if ((await current()) !== expected) return null;
        const text = JSON.stringify(holder);
        const next = `${path}.${randomUUID()}.tmp`;
        try {
          await writeFile(next, text);
          await rename(next, path);
        } catch (error) {
          // A full disk fails the write: no half-written copy is left beside the lock.
          await unlink(next).catch(() => undefined);
          throw error;
        }
        return { version: text };
      }),
    clear: (expected) =>
      guarded(async () => {
        if ((await current()) === expected) await unlink(path).catch(() => undefined);
      }),
  };
}

/** A record nobody can read names no live writer: it is stale at once. */
function parseHolder(text: string): LeaseHolder {
  try {
    return JSON.parse(text) as LeaseHolder;
  } catch {
    return { id: '', host: '', pid: 0, renewedAt: 0 };
  }
}

/** A guard left by a process killed inside its few milliseconds of holding it is removed after this. */
const GUARD_STALE_MS = 5_000;

async function takeGuard(guard: string): Promise<() => Promise<void>> {
  for (let attempt = 0; ; attempt++) {
    try {
      await (await open(guard, 'wx')).close();
      return () => unlink(guard).catch(() => undefined);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const made = await stat(guard).then(
      (info) => info.mtimeMs,
      () => null,
    );
    if (made !== null && Date.now() - made > GUARD_STALE_MS) await unlink(guard).catch(() => undefined);
    else if (attempt > 400) throw new QuireError('internal', `The writer lock ${guard} stays taken.`);
    else await sleep(20);
  }
}
