import { statfs } from 'node:fs/promises';
import { arch, platform, totalmem } from 'node:os';
import { dirname } from 'node:path';
import type { MachineFacts } from '../catalogue/recommend';

/** Free bytes on the disk that holds `dir`, or will once it is created; null when unreadable. */
export async function freeDiskBytes(dir: string): Promise<number | null> {
  let path = dir;
  for (;;) {
    try {
      const stats = await statfs(path);
      return Number(stats.bavail) * Number(stats.bsize);
    } catch {
      const parent = dirname(path);
      if (parent === path) return null;
      path = parent;
    }
  }
}

/** The machine the setup proposes models for. */
export async function readMachineFacts(modelsDir: string): Promise<MachineFacts> {
  const appleSilicon = platform() === 'darwin' && arch() === 'arm64';
  return {
    totalBytes: totalmem(),
    unifiedMemory: appleSilicon,
    appleSilicon,
    freeDiskBytes: await freeDiskBytes(modelsDir),
    modelsDir,
  };
}
