import { open, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { writeFileAtomic } from '../../src/core/common/atomicFile';
import { tempDir } from '../helpers/shared';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

describe('writeFileAtomic on a failing write', () => {
  it('keeps the old content and leaves no temp file when the write fails (a full disk)', async () => {
    const dir = await tempDir('quire-atomic-');
    cleanups.push(dir.cleanup);
    const file = join(dir.path, 'library.json');
    await writeFile(file, 'old');
    // A real handle whose write fails the way a full disk does, after the temp file exists.
    const failingOpen = async (path: string) => {
      const handle = await open(path, 'w');
      handle.writeFile = () =>
        Promise.reject(
          Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' }),
        );
      return handle;
    };
    await expect(writeFileAtomic(file, 'new', failingOpen)).rejects.toMatchObject({ code: 'ENOSPC' });
    expect(await readFile(file, 'utf8')).toBe('old');
    expect(await readdir(dir.path)).toEqual(['library.json']);
  });

  it('writes the new content and leaves no temp file when the write succeeds', async () => {
    const dir = await tempDir('quire-atomic-');
    cleanups.push(dir.cleanup);
    const file = join(dir.path, 'library.json');
    await writeFile(file, 'old');
    await writeFileAtomic(file, 'new');
    expect(await readFile(file, 'utf8')).toBe('new');
    expect(await readdir(dir.path)).toEqual(['library.json']);
  });
});
