import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { QuireError } from '../../shared/errors';
import type { CommitTable } from './commitTable';
import { LocalWriters } from './localWriters';
import type { ObjectStore } from './objectStore';

/** Who holds the lease, as another writer is told. */
export interface LeaseHolder {
  /** The writer, by a random id no other writer shares (host names and process numbers repeat). */
  id: string;
  /** Where it runs, for the person told about it; never used to judge whether it is alive. */
  host: string;
  pid: number;
  /** What the holder is, in the user's words ("The Quire app", "quire index"), when it said. */
  name?: string;
  /** When the holder last said it is alive (ms since the epoch). */
  renewedAt: number;
}

export interface LeaseOptions {
  /** How often the holder renews (default 20 s). */
  renewEveryMs?: number;
  /** A lease not renewed for this long is stale and may be taken over (default 90 s). */
  staleAfterMs?: number;
  /** This machine's own writers: a lease one of them held and whose process ended is stale at once. */
  localWriters?: LocalWriters;
  /**
   * The rule for a local data folder (default false): a holder whose process still runs here keeps the
   * lease however late its renewal (a busy writer is never taken over), and one whose process ended is
   * let go only once its renewal is stale too; a holder elsewhere goes stale by time alone.
   */
  heldWhileRunning?: boolean;
  /** What this writer is, as another writer is told (see LeaseHolder.name). */
  name?: string;
  /** The refusal another writer gets (default: the team library's, naming the holder). */
  refusal?: (holder: LeaseHolder, secondsAgo: number) => QuireError;
  now?: () => number;
}

type LeaseSettings = Required<Omit<LeaseOptions, 'name' | 'refusal'>> &
  Pick<LeaseOptions, 'name' | 'refusal'>;

/** Where a lease record lives: one conditional compare-and-set on a small record. */
export interface LeaseSlot {
  read(): Promise<{ holder: LeaseHolder; version: string } | null>;
  /** Writes the holder if the slot still holds `expected` (null: is empty); false when it changed. */
  swap(holder: LeaseHolder, expected: string | null): Promise<{ version: string } | null>;
  clear(expected: string): Promise<void>;
}

/**
 * One writer per library. Rule for a writer that died without releasing: its lease is stale once it
 * has not been renewed for `staleAfterMs`, or at once when its writer id is one this machine noted
 * for a process of its own that no longer runs (never by host name and process number, which another
 * machine or PID namespace can share); a stale lease is taken over with the same conditional write, so
 * two writers recovering at once cannot both win.
 */
export class WriterLease {
  private timer: NodeJS.Timeout | undefined;
  private version: string;
  private lostReason: string | null = null;

  private constructor(
    private readonly slot: LeaseSlot,
    private holder: LeaseHolder,
    version: string,
    private readonly options: LeaseSettings,
  ) {
    this.version = version;
    this.timer = setInterval(() => void this.renew(), options.renewEveryMs);
    this.timer.unref();
  }

  static async take(slot: LeaseSlot, where: string, options: LeaseOptions = {}): Promise<WriterLease> {
    const settings: LeaseSettings = {
      ...options,
      renewEveryMs: options.renewEveryMs ?? 20_000,
      staleAfterMs: options.staleAfterMs ?? 90_000,
      localWriters: options.localWriters ?? new LocalWriters(),
      heldWhileRunning: options.heldWhileRunning ?? false,
      now: options.now ?? Date.now,
    };
    const mine: LeaseHolder = {
      id: randomUUID(),
      host: hostname(),
      pid: process.pid,
      ...(settings.name ? { name: settings.name } : {}),
      renewedAt: settings.now(),
    };
    for (let attempt = 0; attempt < 3; attempt++) {
      const current = await slot.read();
      if (current && !isStale(current.holder, settings)) throw refuse(where, current.holder, settings);
      // Noted before the write: a writer killed right after it must still be known here as ended.
      settings.localWriters.noteMine(mine.id);
      const taken = await slot.swap({ ...mine, renewedAt: settings.now() }, current?.version ?? null);
      if (taken) {
        if (current) settings.localWriters.forget(current.holder.id);
        return new WriterLease(slot, mine, taken.version, settings);
      }
      settings.localWriters.forget(mine.id);
    }
    const current = await slot.read();
    throw current
      ? refuse(where, current.holder, settings)
      : new QuireError('internal', `The writer lease of ${where} keeps changing.`);
  }

  /** Why the lease was lost (another writer took it over after this one stalled), or null. */
  get lost(): string | null {
    return this.lostReason;
  }

  async renew(): Promise<void> {
    if (this.lostReason !== null) return;
    const next = { ...this.holder, renewedAt: this.options.now() };
    try {
      const written = await this.slot.swap(next, this.version);
      if (written) {
        this.holder = next;
        this.version = written.version;
      } else this.lostReason = 'another writer took the library over';
    } catch {
      // The store being unreachable for one renewal is not a loss; the next one tries again.
    }
  }

  async release(): Promise<void> {
    clearInterval(this.timer);
    if (this.lostReason === null) await this.slot.clear(this.version).catch(() => undefined);
    this.options.localWriters.forget(this.holder.id);
  }
}

function isStale(holder: LeaseHolder, options: LeaseSettings): boolean {
  const late = options.now() - holder.renewedAt > options.staleAfterMs;
  if (options.heldWhileRunning) return late && !options.localWriters.running(holder.id);
  return late || options.localWriters.ended(holder.id);
}

function refuse(where: string, holder: LeaseHolder, options: LeaseSettings): QuireError {
  const ago = Math.max(0, Math.round((options.now() - holder.renewedAt) / 1000));
  if (options.refusal) return options.refusal(holder, ago);
  return new QuireError(
    'already_exists',
    `Another writer is indexing ${where} (process ${holder.pid} on ${holder.host}, seen ${ago} s ago). ` +
      'A library takes one writer at a time: search it read-only, or wait until that index run ends.',
  );
}

/** The lease as an item of the commit table (s3+ddb:// libraries), under a base_uri of its own. */
export function tableLeaseSlot(table: CommitTable, libraryUri: string): LeaseSlot {
  const key = { base_uri: { S: `${libraryUri}#quire-writer` }, version: { N: '0' } };
  return {
    async read() {
      const item = await table.get(key);
      const text = item?.lease_holder;
      if (!item || !text || !('S' in text)) return null;
      return { holder: JSON.parse(text.S) as LeaseHolder, version: text.S };
    },
    async swap(holder, expected) {
      const text = JSON.stringify(holder);
      const written = await table.putIf(
        { ...key, lease_holder: { S: text } },
        expected === null ? 'attribute_not_exists(base_uri)' : 'lease_holder = :expected',
        expected === null ? {} : { ':expected': { S: expected } },
      );
      return written ? { version: text } : null;
    },
    async clear(expected) {
      await table.deleteIf(key, 'lease_holder = :expected', { ':expected': { S: expected } });
    },
  };
}

/** The lease as an object written with If-None-Match / If-Match (s3:// libraries on stores that honour them). */
export function objectLeaseSlot(store: ObjectStore): LeaseSlot {
  const key = 'writer-lease.json';
  return {
    async read() {
      const found = await store.getWithTag(key);
      if (!found) return null;
      return { holder: JSON.parse(new TextDecoder().decode(found.body)) as LeaseHolder, version: found.tag };
    },
    async swap(holder, expected) {
      const body = new TextEncoder().encode(JSON.stringify(holder));
      const tag = await store.putConditional(
        key,
        body,
        expected === null ? { ifNoneMatch: '*' } : { ifMatch: expected },
      );
      return tag === null ? null : { version: tag };
    },
    async clear() {
      await store.delete(key);
    },
  };
}
