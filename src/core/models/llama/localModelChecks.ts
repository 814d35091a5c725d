/*
 * What is known of each local GGUF the roles may use: whether it can be used and, if not, why. A file is
 * read again whenever its size or modification time changes, so a truncated download that the user
 * replaces works on the next call without a restart.
 */
import { stat } from 'node:fs/promises';
import { QuireError } from '../../../shared/errors';
import { describeGguf } from './describeGguf';

export class LocalModelChecks {
  /** By path; `stamp` is size and mtime at the time of the verdict. */
  private readonly verdicts = new Map<string, { stamp: string; problem: string | null }>();

  /** Paths that cannot be used, with the reason in one sentence. */
  unusable(): Map<string, string> {
    const unusable = new Map<string, string>();
    for (const [path, verdict] of this.verdicts) if (verdict.problem) unusable.set(path, verdict.problem);
    return unusable;
  }

  /**
   * Reads the header of every file that is new or changed on disk (tensor table, data inside the file),
   * so a broken file is reported before anything tries to load it. True when any verdict changed.
   */
  async check(paths: string[]): Promise<boolean> {
    let changed = false;
    for (const path of paths) {
      const stamp = await fileStamp(path);
      if (this.verdicts.get(path)?.stamp === stamp) continue;
      const problem =
        stamp === null
          ? null
          : await describeGguf(path).then(
              () => null,
              (error: unknown) => problemOf(error),
            );
      changed ||= (this.verdicts.get(path)?.problem ?? null) !== problem;
      this.verdicts.set(path, { stamp: stamp ?? '', problem });
    }
    return changed;
  }

  /** A load that failed in the model host marks the file unusable until it changes on disk. */
  async noteLoadFailure(path: string, error: unknown): Promise<boolean> {
    if (!(error instanceof QuireError) || error.code !== 'model_failed') return false;
    this.verdicts.set(path, { stamp: (await fileStamp(path)) ?? '', problem: problemOf(error) });
    return true;
  }
}

/** Size and modification time; null when the file is missing (the role then says so by itself). */
async function fileStamp(path: string): Promise<string | null> {
  const info = await stat(path).catch(() => null);
  return info ? `${info.size}:${info.mtimeMs}` : null;
}

/** Why a GGUF cannot be used, as one sentence; the role's reason names the file. */
function problemOf(error: unknown): string {
  const details =
    error instanceof QuireError ? (error.details as { problem?: unknown } | undefined) : undefined;
  const text =
    typeof details?.problem === 'string'
      ? details.problem
      : error instanceof Error
        ? error.message
        : String(error);
  return /[.!?]$/.test(text) ? text : `${text}.`;
}
