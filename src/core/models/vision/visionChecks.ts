/*
 * What is known of the vision model's two files: whether they can be used and, if not, why. Read
 * again whenever either file's size or modification time changes, so a replaced download works on
 * the next call without a restart.
 */
import { stat } from 'node:fs/promises';
import { QuireError } from '../../../shared/errors';
import type { VisionModelFiles } from '../roles';
import { checkVisionFiles } from './visionFiles';

export class VisionChecks {
  /** By model path; `stamp` is both files' size and mtime at the time of the verdict. */
  private readonly verdicts = new Map<string, { stamp: string; problem: string | null }>();

  /** Model paths that cannot be used, with the reason in one sentence. */
  unusable(): Map<string, string> {
    const unusable = new Map<string, string>();
    for (const [path, verdict] of this.verdicts) if (verdict.problem) unusable.set(path, verdict.problem);
    return unusable;
  }

  /** Checks the pairs that are new or changed on disk; true when any verdict changed. */
  async check(pairs: VisionModelFiles[]): Promise<boolean> {
    let changed = false;
    for (const pair of pairs) {
      const stamp = await pairStamp(pair);
      const known = this.verdicts.get(pair.modelPath);
      if (known?.stamp === stamp) continue;
      const problem = await checkVisionFiles(pair.modelPath, pair.projectorPath).then(
        () => null,
        (error: unknown) => problemOf(error),
      );
      changed ||= (known?.problem ?? null) !== problem;
      this.verdicts.set(pair.modelPath, { stamp, problem });
    }
    return changed;
  }

  /** A load that failed in the host marks the model unusable until either file changes on disk. */
  async noteLoadFailure(pair: VisionModelFiles, error: unknown): Promise<boolean> {
    if (!(error instanceof QuireError) || error.code !== 'model_failed') return false;
    this.verdicts.set(pair.modelPath, { stamp: await pairStamp(pair), problem: problemOf(error) });
    return true;
  }
}

async function pairStamp(pair: VisionModelFiles): Promise<string> {
  const stamps = await Promise.all(
    [pair.modelPath, pair.projectorPath].map(async (path) => {
      const info = await stat(path).catch(() => null);
      return info ? `${info.size}:${info.mtimeMs}` : 'missing';
    }),
  );
  return `${pair.projectorPath}|${stamps.join('|')}`;
}

/** The sentence that says which file and why (the refusal names the file: model or projector). */
function problemOf(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return /[.!?]$/.test(text) ? text : `${text}.`;
}
