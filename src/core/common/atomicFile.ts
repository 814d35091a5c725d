import { randomBytes } from 'node:crypto';
import { mkdir, open, readFile, rename, rm, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';

/**
 * Writes a file so that a crash at any moment leaves either the old content or the new, never half:
 * write a temp file beside it, fsync, rename over. A write that fails (a full disk) removes its temp
 * file, so failures leave nothing behind.
 */
export async function writeFileAtomic(
  path: string,
  data: string | Uint8Array,
  openFile: (path: string) => Promise<FileHandle> = (temp) => open(temp, 'w'),
): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const temp = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    const handle = await openFile(temp);
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true }).catch(() => undefined);
    throw error;
  }
}

export async function writeJsonAtomic(path: string, value: unknown): Promise<void> {
  await writeFileAtomic(path, JSON.stringify(value, null, 2) + '\n');
}

/** Reads JSON, or returns `fallback` when the file does not exist yet. */
export async function readJsonOr<T>(path: string, fallback: T): Promise<T | unknown> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as unknown;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return fallback;
    throw error;
  }
}
