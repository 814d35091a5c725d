import type { OptimizeStats, Table } from '@lancedb/lancedb';

/**
 * How long a table version stays after a newer one replaced it. A reader (a shared library's desktop,
 * a search in flight) may be reading the version that was the latest a moment ago; LanceDB removes
 * versions by their age alone, so a version made an hour ago and replaced a second ago would go at once.
 */
export const KEEP_REPLACED_MS = 60_000;

/**
 * The moment before which versions may be removed so that every version that was the latest at any
 * time in the last `keepMs` stays: the newest version made at least `keepMs` ago was the latest then,
 * so it and all later ones are kept, however old they are.
 */
export function removableBefore(
  versions: ReadonlyArray<{ timestamp: Date }>,
  now: number,
  keepMs: number,
): Date {
  const horizon = now - keepMs;
  let latestAtHorizon: number | null = null;
  let oldest = now;
  for (const { timestamp } of versions) {
    const at = timestamp.getTime();
    oldest = Math.min(oldest, at);
    if (at <= horizon && (latestAtHorizon === null || at > latestAtHorizon)) latestAtHorizon = at;
  }
  // One millisecond before it: LanceDB removes what is older than the moment given.
  return new Date((latestAtHorizon ?? oldest) - 1);
}

export interface TableOptimizeOptions {
  /** Overrides the rule above: versions older than this go, replaced or not. */
  cleanupOlderThan?: Date;
  /** How long a replaced version stays; KEEP_REPLACED_MS by default. */
  keepReplacedMs?: number;
  /** Room for the moment's drift in the second, near-empty compaction; COMPACTION_DRIFT_MS by default. */
  driftMs?: number;
  /** Also remove files no version references (left by a killed write); only the one writer may. */
  deleteUnverified?: boolean;
}

/** Older than any version: an optimize given this removes none. */
const NO_VERSION_IS_THIS_OLD = new Date(0);

/**
 * LanceDB turns the moment given into an age when the call starts and back into a moment when it
 * removes versions, after compacting: the moment moves by however long the compaction took. The
 * compaction runs first on its own; this covers the second, near-empty one.
 */
const COMPACTION_DRIFT_MS = 5_000;

/**
 * Compacts a table, then removes old versions, keeping those readers may still be reading (see
 * removableBefore). Two optimize calls: the first only compacts, so the second's moment is computed
 * from the versions as they are when it runs.
 */
export async function optimizeKeepingReaders(
  table: Table,
  options: TableOptimizeOptions = {},
): Promise<OptimizeStats> {
  const deleteUnverified = options.deleteUnverified ?? false;
  if (options.cleanupOlderThan) {
    return table.optimize({ cleanupOlderThan: options.cleanupOlderThan, deleteUnverified });
  }
  const compacted = await table.optimize({ cleanupOlderThan: NO_VERSION_IS_THIS_OLD });
  const keepMs = options.keepReplacedMs ?? KEEP_REPLACED_MS;
  const before = removableBefore(await table.listVersions(), Date.now(), keepMs);
  const pruned = await table.optimize({
    cleanupOlderThan: new Date(before.getTime() - (options.driftMs ?? COMPACTION_DRIFT_MS)),
    deleteUnverified,
  });
  return { compaction: compacted.compaction, prune: pruned.prune };
}
