/*
 * Everything known against the local model files the roles may use, in one place: GGUF headers
 * (LocalModelChecks), vision model pairs (VisionChecks) and ONNX embedders (page or text) that failed to load.
 * Role resolution reads `unusable()`; a failed load is noted here so the next resolution says why.
 */
import { LocalModelChecks } from './llama/localModelChecks';
import type { VisionModelFiles } from './roles';
import { VisionChecks } from './vision/visionChecks';

export type LoadFailureKind = 'gguf' | 'onnx' | 'vision';

export class LocalFileChecks {
  private readonly ggufs = new LocalModelChecks();
  private readonly vision = new VisionChecks();
  /** ONNX page and text embedders that failed to load, with the reason, until the next start. */
  private readonly pageEmbedderProblems = new Map<string, string>();

  /** Reads the headers of files new or changed on disk; true when any verdict changed. */
  async check(ggufs: string[], visionPairs: VisionModelFiles[]): Promise<boolean> {
    const [gguf, vision] = await Promise.all([this.ggufs.check(ggufs), this.vision.check(visionPairs)]);
    return gguf || vision;
  }

  /** Files that cannot be used, with the reason in one sentence (a vision pair under its model's path). */
  unusable(): Map<string, string> {
    return new Map([...this.ggufs.unusable(), ...this.vision.unusable(), ...this.pageEmbedderProblems]);
  }

  problemWith(path: string): string | null {
    return this.unusable().get(path) ?? null;
  }

  /**
   * Notes a load that failed in a model host; true when the verdicts changed. `key` is the file's path,
   * or for a vision model its path and its projector's, joined by a newline.
   */
  async noteLoadFailure(kind: LoadFailureKind, key: string, error: unknown): Promise<boolean> {
    if (kind === 'onnx') {
      this.pageEmbedderProblems.set(key, error instanceof Error ? error.message : String(error));
      return true;
    }
    if (kind === 'vision') {
      const [modelPath = '', projectorPath = ''] = key.split('\n');
      return this.vision.noteLoadFailure({ modelPath, projectorPath }, error);
    }
    return this.ggufs.noteLoadFailure(key, error);
  }
}
