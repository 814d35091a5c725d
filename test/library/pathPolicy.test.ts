import { execFileSync } from 'node:child_process';
import { mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveInLibrary } from '../../src/core/agent/tools/libraryPaths';
import { createCore } from '../../src/core/createCore';
import { LibraryService } from '../../src/core/library/libraryService';
import { realRoots } from '../../src/core/library/pathPolicy';
import { refuseProtectedFolder } from '../../src/core/library/protectedFolders';
import type { LibrarySnapshot } from '../../src/shared/domain/library';
import { startLibrary } from '../helpers/libraryRows';
import { quireRejection } from '../helpers/rejection';
import { tempDir } from '../helpers/shared';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function dir() {
  const made = await tempDir('quire-policy-');
  cleanups.push(made.cleanup);
  return made.path;
}

async function openLibrary(dataDir: string, watch = false) {
  const library = new LibraryService({ dataDir, watch, changeDelayMs: 20 });
  cleanups.unshift(await startLibrary(library, dataDir));
  return library;
}

async function until(library: LibraryService, done: (snapshot: LibrarySnapshot) => boolean) {
  for (let waited = 0; !done(library.snapshot()); waited += 50) {
    if (waited > 10_000) throw new Error(`not reached: ${JSON.stringify(library.snapshot())}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return library.snapshot();
}

/**
 * A library folder with every kind of entry the policy decides on: plain files, links that stay inside
 * (to a file, to a folder), links that leave (to a file, to a folder of documents), a broken link, a
 * link loop and a named pipe with a document's name.
 */
async function folderWithLinks() {
  const folder = await dir();
  const outside = await dir();
  await mkdir(join(folder, 'sub'));
  await writeFile(join(folder, 'plain.txt'), 'plain');
  await writeFile(join(folder, 'sub', 'deep.md'), '# deep');
  await writeFile(join(outside, 'secret.txt'), 'outside the library');
  await mkdir(join(outside, 'more'));
  await writeFile(join(outside, 'more', 'other.txt'), 'outside too');
  await symlink(join(folder, 'sub', 'deep.md'), join(folder, 'link-in.md'));
  await symlink(join(folder, 'sub'), join(folder, 'linked-sub'));
  await symlink(join(outside, 'secret.txt'), join(folder, 'link-out.txt'));
  await symlink(join(outside, 'more'), join(folder, 'linked-outside'));
  await symlink(join(folder, 'missing.txt'), join(folder, 'broken.txt'));
  await symlink(folder, join(folder, 'sub', 'loop'));
  execFileSync('mkfifo', [join(folder, 'pipe.txt')]);
  return { folder, outside };
}

describe('the path policy', () => {
  it('reads links that stay inside, and lists every link that leaves with the reason', async () => {
    const { folder, outside } = await folderWithLinks();
    const library = await openLibrary(await dir());
    await library.addFolder(folder);
    await library.whenIdle();
    const snapshot = library.snapshot();
    // A folder reached twice (sub, and linked-sub pointing at it) is read once.
    expect(snapshot.documents.map((doc) => doc.relativePath).sort()).toEqual(
      ['link-in.md', 'plain.txt', 'sub/deep.md'].sort(),
    );
    const skipped = Object.fromEntries(
      snapshot.skipped.map((file) => [file.path.slice(folder.length + 1), file.reason]),
    );
    expect(skipped).toEqual({
      'link-out.txt': `it is a link to ${join(outside, 'secret.txt')}, outside the library folders`,
      'linked-outside': `it is a link to ${join(outside, 'more')}, outside the library folders`,
      'broken.txt': 'it is a link to something that does not exist',
      'pipe.txt': 'it is not a regular file',
    });
  });

  it('gives the file tools and ingestion the same verdict as the folder walk', async () => {
    const { folder } = await folderWithLinks();
    const library = await openLibrary(await dir());
    await library.addFolder(folder);
    await library.whenIdle();
    const roots = await realRoots([folder]);
    for (const doc of library.snapshot().documents) {
      await expect(resolveInLibrary(doc.path, roots)).resolves.toBeTruthy();
      await expect(library.readablePath(doc.path)).resolves.toBeTruthy();
    }
    for (const name of ['link-out.txt', 'linked-outside/other.txt']) {
      expect((await quireRejection(resolveInLibrary(join(folder, name), roots))).code).toBe(
        'outside_library',
      );
      expect((await quireRejection(library.readablePath(join(folder, name)))).code).toBe('outside_library');
    }
    // A listed file replaced by a link that leads outside is refused when it is about to be read.
    await rm(join(folder, 'plain.txt'));
    await symlink('/etc/hostname', join(folder, 'plain.txt'));
    const refused = await quireRejection(library.readablePath(join(folder, 'plain.txt')));
    expect(refused.code).toBe('outside_library');
    expect(refused.message).toContain('outside the library folders');
  });

  it('has the watcher skip links that appear later and lead outside', async () => {
    const folder = await dir();
    const outside = await dir();
    await writeFile(join(outside, 'secret.txt'), 'outside');
    const library = await openLibrary(await dir(), true);
    await library.addFolder(folder);
    await library.whenIdle();
    await symlink(join(outside, 'secret.txt'), join(folder, 'new-link.txt'));
    await writeFile(join(folder, 'new.txt'), 'inside');
    const snapshot = await until(
      library,
      (s) => s.documents.some((doc) => doc.relativePath === 'new.txt') && s.skipped.length > 0,
    );
    expect(snapshot.documents.map((doc) => doc.relativePath)).toEqual(['new.txt']);
    expect(snapshot.skipped).toEqual([
      expect.objectContaining({
        path: join(folder, 'new-link.txt'),
        reason: expect.stringContaining('outside'),
      }),
    ]);
  });
});

describe('folders the library refuses', () => {
  it('refuses the data folder, folders around or inside it, the root, system folders and special files', async () => {
    const base = await dir();
    const dataDir = join(base, 'home', '.config', 'Quire');
    await mkdir(join(dataDir, 'index'), { recursive: true });
    const fifo = join(base, 'fifo');
    execFileSync('mkfifo', [fifo]);
    await symlink('/etc', join(base, 'etc-link'));
    const library = await openLibrary(dataDir);
    const refused: Array<[string, string]> = [
      [dataDir, 'data_folder'],
      [join(dataDir, 'index'), 'data_folder'],
      [join(base, 'home'), 'data_folder'],
      [base, 'data_folder'],
      ['/', 'file_system_root'],
      ['/etc', 'system_folder'],
      [join(base, 'etc-link'), 'system_folder'],
      ['/proc', 'system_folder'],
      ['/proc/self/fd', 'system_folder'],
      ['/sys', 'system_folder'],
      ['/dev', 'system_folder'],
      ['/dev/null', 'special_file'],
      [fifo, 'special_file'],
    ];
    for (const [folder, reason] of refused) {
      const error = await quireRejection(library.addFolder(folder));
      expect(error.code, folder).toBe('forbidden');
      expect(error.details, folder).toMatchObject({ reason });
    }
    // Folders of other systems, by name alone.
    for (const [folder, reason] of [
      ['/System/Library', 'system_folder'],
      ['C:\\Windows\\System32', 'system_folder'],
      ['C:\\', 'file_system_root'],
    ]) {
      const error = await quireRejection(refuseProtectedFolder(folder!, dataDir));
      expect(error.details, folder).toMatchObject({ reason });
    }
    expect(library.snapshot().roots).toEqual([]);
    // The one folder of the data folder the library may hold: PDFs the user approved from the web.
    const webDownloads = join(dataDir, 'web-downloads');
    await mkdir(webDownloads);
    const withDownloads = new LibraryService({
      dataDir,
      watch: false,
      documentFoldersInDataDir: [webDownloads],
    });
    cleanups.unshift(await startLibrary(withDownloads, dataDir));
    await expect(withDownloads.addFolder(webDownloads)).resolves.toMatchObject({ path: webDownloads });
    expect((await quireRejection(withDownloads.addFolder(join(dataDir, 'index')))).code).toBe('forbidden');
    const documents = join(base, 'home', 'Documents');
    await mkdir(documents);
    await expect(library.addFolder(documents)).resolves.toMatchObject({ path: documents });
  });
});

describe('the library as the composition root builds it', () => {
  it('accepts the web downloads folder and nothing else of the data folder', async () => {
    const dataDir = await dir();
    const core = createCore({ dataDir, ingest: false, findModels: false, detectServers: false });
    cleanups.unshift(await startLibrary(core.library, dataDir));
    await mkdir(core.web.downloadsFolder, { recursive: true });
    await expect(core.library.addFolder(core.web.downloadsFolder)).resolves.toMatchObject({
      path: core.web.downloadsFolder,
    });
    expect((await quireRejection(core.library.addFolder(dataDir))).code).toBe('forbidden');
  });
});
