import { chmod, copyFile, mkdir, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { connect } from '@lancedb/lancedb';
import { expandHome } from '../../src/core/library/folderCheck';
import { LibraryService } from '../../src/core/library/libraryService';
import type { LibrarySnapshot } from '../../src/shared/domain/library';
import { startLibrary } from '../helpers/libraryRows';
import { samplePdfBytes, samplePdfs } from '../helpers/samplePdfs';
import { corpusDir, tempDir, withoutCorpus } from '../helpers/shared';

/** Two PDFs the tests write, of different sizes (3 pages and 2). */
const survey = samplePdfBytes(samplePdfs[0]!.pages);
const manual = samplePdfBytes(samplePdfs[1]!.pages);

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function fixture() {
  const data = await tempDir();
  const folder = await tempDir();
  cleanups.push(data.cleanup, folder.cleanup);
  return { dataDir: data.path, folder: folder.path };
}

async function openLibrary(dataDir: string, watch = false) {
  const library = new LibraryService({ dataDir, watch, changeDelayMs: 20 });
  cleanups.unshift(await startLibrary(library, dataDir));
  return library;
}

function waitFor(library: LibraryService, predicate: (s: LibrarySnapshot) => boolean, ms = 5000) {
  return new Promise<LibrarySnapshot>((resolve, reject) => {
    if (predicate(library.snapshot())) return resolve(library.snapshot());
    const timer = setTimeout(() => {
      off();
      reject(
        new Error(
          `timed out; last snapshot: ${JSON.stringify(library.snapshot().documents.map((d) => d.relativePath))}`,
        ),
      );
    }, ms);
    const off = library.events.on('changed', (snapshot) => {
      if (!predicate(snapshot)) return;
      clearTimeout(timer);
      off();
      resolve(snapshot);
    });
  });
}

describe('LibraryService', () => {
  it('lists documents and pictures with sizes, opening none of them, and ignores other files', async () => {
    const { dataDir, folder } = await fixture();
    await writeFile(join(folder, 'survey.pdf'), survey);
    await mkdir(join(folder, 'notes'));
    await writeFile(join(folder, 'notes', 'read me.md'), '# Notes\n');
    await writeFile(join(folder, 'notes', 'todo.txt'), 'todo\n');
    await writeFile(join(folder, 'picture.png'), 'not a picture yet: listed, and failed when read');
    await writeFile(join(folder, 'archive.zip'), 'not a document');
    const library = await openLibrary(dataDir);
    await library.addFolder(folder);
    await library.whenIdle();
    const docs = library.snapshot().documents;
    expect(docs.map((d) => [d.relativePath, d.kind, d.pages])).toEqual([
      [join('notes', 'read me.md'), 'markdown', null],
      [join('notes', 'todo.txt'), 'text', null],
      ['picture.png', 'image', null],
      // Pages are counted when the file is read (by ingestion), not when it is listed.
      ['survey.pdf', 'pdf', null],
    ]);
    expect(docs.every((d) => d.state === 'listed' && d.error === null)).toBe(true);
    expect(docs.find((d) => d.kind === 'pdf')?.bytes).toBeGreaterThan(1000);
  });

  it('gives a clear error for a missing folder, a file, a relative path, an unreadable folder and a duplicate', async () => {
    const { dataDir, folder } = await fixture();
    const library = await openLibrary(dataDir);
    await expect(library.addFolder(join(folder, 'missing'))).rejects.toMatchObject({ code: 'not_found' });
    await writeFile(join(folder, 'file.pdf'), 'x');
    await expect(library.addFolder(join(folder, 'file.pdf'))).rejects.toMatchObject({ code: 'not_a_folder' });
    await expect(library.addFolder('relative/path')).rejects.toMatchObject({ code: 'invalid_input' });
    await library.addFolder(folder);
    await expect(library.addFolder(folder)).rejects.toMatchObject({ code: 'already_exists' });
    await mkdir(join(folder, 'inner'));
    await expect(library.addFolder(join(folder, 'inner'))).rejects.toMatchObject({ code: 'already_exists' });
    if (process.getuid?.() !== 0) {
      const locked = join(folder, 'locked');
      await mkdir(locked);
      await chmod(locked, 0o000);
      await library.removeFolder(library.snapshot().roots[0]!.id);
      await expect(library.addFolder(locked)).rejects.toMatchObject({ code: 'not_readable' });
      await chmod(locked, 0o755);
    } else {
      console.log('unreadable-folder case not run: running as root, which can read any folder');
    }
  });

  it('reads a leading ~/ as the home folder, as a shell would', async () => {
    expect(expandHome('~/Papers/2024', '/home/ada')).toBe(join('/home/ada', 'Papers/2024'));
    expect(expandHome('~', '/home/ada')).toBe('/home/ada');
    expect(expandHome('/srv/~/x', '/home/ada')).toBe('/srv/~/x');
    expect(expandHome('~ada/x', '/home/ada')).toBe('~ada/x');
    const { dataDir, folder } = await fixture();
    const library = await openLibrary(dataDir);
    const home = process.env.HOME;
    // homedir() reads HOME: the folder's parent stands in for the user's home.
    process.env.HOME = dirname(folder);
    try {
      const root = await library.addFolder(`~/${basename(folder)}`);
      expect(root.path).toBe(folder);
    } finally {
      process.env.HOME = home;
    }
    await expect(library.addFolder('~ada/x')).rejects.toMatchObject({ code: 'invalid_input' });
  });

  it('keeps roots and rows across restarts, writing nothing for unchanged files', async () => {
    const { dataDir, folder } = await fixture();
    await writeFile(join(folder, 'a.pdf'), survey);
    const first = await openLibrary(dataDir);
    await first.addFolder(folder);
    await first.whenIdle();
    const listed = first.snapshot().documents;
    await first.dispose();
    const table = await (await connect(join(dataDir, 'index'))).openTable('documents');
    const versionBefore = await table.version();

    const second = await openLibrary(dataDir);
    await second.whenIdle();
    expect(second.snapshot().roots.map((r) => r.path)).toEqual([folder]);
    expect(second.snapshot().documents).toEqual(listed);
    await table.checkoutLatest();
    expect(await table.version()).toBe(versionBefore);
    table.close();
  });

  it.skipIf(withoutCorpus('page counts of a locked corpus PDF when listing'))(
    'counts pages when listing only for a library nothing reads, naming broken and locked PDFs',
    async () => {
      const { dataDir, folder } = await fixture();
      await copyFile(join(corpusDir, 'pdfjs/tracemonkey.pdf'), join(folder, 'trace.pdf'));
      await writeFile(join(folder, 'junk.pdf'), '%PDF-1.7 this is not a pdf');
      await copyFile(join(corpusDir, 'odd/pdfjs/issue3371.pdf'), join(folder, 'locked.pdf'));
      const library = new LibraryService({ dataDir, watch: false, countPagesWhenListed: true });
      cleanups.unshift(await startLibrary(library, dataDir));
      await library.addFolder(folder);
      await library.whenIdle();
      const byName = Object.fromEntries(library.snapshot().documents.map((d) => [d.relativePath, d]));
      expect(byName['trace.pdf']).toMatchObject({ state: 'listed', pages: 14 });
      expect(byName['junk.pdf']).toMatchObject({ state: 'failed', pages: null });
      expect(byName['junk.pdf']?.error).toMatch(/cannot be read/);
      expect(byName['locked.pdf']).toMatchObject({ state: 'needsPassword', pages: null });
      // What the listing found is kept for the next start, problems too.
      const table = await (await connect(join(dataDir, 'index'))).openTable('documents');
      const rows = await table.query().toArray();
      table.close();
      const states = Object.fromEntries(rows.map((row) => [String(row.path).split('/').pop(), row.state]));
      expect(states).toEqual({ 'trace.pdf': 'listed', 'junk.pdf': 'failed', 'locked.pdf': 'needsPassword' });
    },
  );

  it('survives symlink loops', async () => {
    const { dataDir, folder } = await fixture();
    await mkdir(join(folder, 'a', 'b'), { recursive: true });
    await writeFile(join(folder, 'a', 'b', 'note.txt'), 'hello');
    await symlink(join(folder, 'a'), join(folder, 'a', 'b', 'loop'));
    const library = await openLibrary(dataDir);
    await library.addFolder(folder);
    await library.whenIdle();
    expect(library.snapshot().documents.map((d) => d.relativePath)).toEqual([join('a', 'b', 'note.txt')]);
  });

  it('lists a 10,000-file folder', async () => {
    const { dataDir, folder } = await fixture();
    for (let dir = 0; dir < 20; dir++) {
      await mkdir(join(folder, `d${dir}`));
      await Promise.all(
        Array.from({ length: 500 }, (_, i) => writeFile(join(folder, `d${dir}`, `n${i}.txt`), `note ${i}`)),
      );
    }
    const library = await openLibrary(dataDir);
    await library.addFolder(folder);
    await library.whenIdle();
    expect(library.snapshot().documents).toHaveLength(10_000);
  });

  it('follows files added, changed and deleted while watching', async () => {
    const { dataDir, folder } = await fixture();
    const library = await openLibrary(dataDir, true);
    await library.addFolder(folder);
    await library.whenIdle();
    const listedWith = (bytes: number) => (s: LibrarySnapshot) =>
      s.documents.some((d) => d.relativePath === 'new.pdf' && d.bytes === bytes);
    await writeFile(join(folder, 'new.pdf'), survey);
    await waitFor(library, listedWith((await stat(join(folder, 'new.pdf'))).size));
    await writeFile(join(folder, 'new.pdf'), manual);
    await waitFor(library, listedWith((await stat(join(folder, 'new.pdf'))).size));
    await rm(join(folder, 'new.pdf'));
    await waitFor(library, (s) => s.documents.length === 0);
  });
});
