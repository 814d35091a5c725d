import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LibraryChangeFeed } from '../../src/core/library/libraryChanges';
import { LibraryService } from '../../src/core/library/libraryService';
import {
  applyLibraryChange,
  applyLibraryChanges,
  isNewerListing,
  withPage,
} from '../../src/renderer/src/features/library/libraryChange';
import type { DocumentInfo, LibraryChange, LibraryListing } from '../../src/shared/domain/library';
import { startLibrary } from '../helpers/libraryRows';
import { tempDir } from '../helpers/shared';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function openFeed() {
  const data = await tempDir();
  const folder = await tempDir();
  cleanups.push(data.cleanup, folder.cleanup);
  const library = new LibraryService({ dataDir: data.path, watch: true, changeDelayMs: 20 });
  const changes: LibraryChange[] = [];
  const feed = new LibraryChangeFeed(library, (change) => changes.push(change));
  cleanups.unshift(await startLibrary(library, data.path));
  return { library, feed, changes, folder: folder.path };
}

function follow(listing: LibraryListing, changes: readonly LibraryChange[]): LibraryListing {
  let state = listing;
  for (const change of changes) {
    const next = applyLibraryChange(state, change);
    if (!next) throw new Error(`change ${change.from}->${change.to} does not follow ${state.revision}`);
    state = next;
  }
  return state;
}

const note = (folder: string, name: string, text = `# ${name}\n`) => writeFile(join(folder, name), text);

describe('the library sends its changes, not itself', () => {
  it('a listing followed by the changes after it equals a fresh listing; one edit sends one document', async () => {
    const { library, feed, changes, folder } = await openFeed();
    for (const name of ['b.md', 'a.md', 'd.md']) await note(folder, name);
    const start = feed.list();
    await library.addFolder(folder);
    await library.whenIdle();
    await expect.poll(() => follow(start, changes.slice()).documents.length).toBe(3);

    await note(folder, 'c.md');
    await rm(join(folder, 'd.md'));
    await expect
      .poll(() =>
        follow(start, changes.slice())
          .documents.map((d) => d.relativePath)
          .join(),
      )
      .toBe('a.md,b.md,c.md');
    const settled = changes.length;

    await note(folder, 'a.md', '# a, longer now\n');
    await expect.poll(() => changes.length).toBeGreaterThan(settled);
    const edit = changes.at(-1)!;
    expect(edit.documents.map((d) => d.relativePath)).toEqual(['a.md']);
    expect(edit.removed).toEqual([]);

    const fresh = feed.list();
    expect(follow(start, changes.slice())).toEqual(fresh);
    // A frame's worth of changes applied in one pass gives the same listing.
    expect(applyLibraryChanges(start, changes.slice())).toEqual(fresh);
  });

  it('applies a run of changes in one pass as one by one: a file gone and back, moved, edited twice', () => {
    const doc = (id: string, path: string, state: DocumentInfo['state'] = 'indexed'): DocumentInfo => ({
      id,
      rootId: 'r',
      path: `/lib/${path}`,
      relativePath: path,
      kind: 'markdown',
      bytes: 1,
      modifiedMs: 0,
      pages: 1,
      state,
      error: null,
    });
    const listing: LibraryListing = {
      roots: [],
      skipped: [],
      scanning: false,
      documents: [doc('a', 'a.md'), doc('b', 'b.md'), doc('c', 'c.md')],
      revision: 4,
    };
    const change = (from: number, documents: DocumentInfo[], removed: string[] = []): LibraryChange => ({
      from,
      to: from + 1,
      roots: [],
      skipped: [],
      scanning: from % 2 === 0,
      documents,
      removed,
    });
    const run = [
      change(3, [doc('z', 'z.md')]), // already held: passed over
      change(4, [doc('a', 'a.md', 'queued')], ['b']),
      change(5, [doc('b', 'bb.md'), doc('a', 'a.md', 'indexing')]),
      change(6, [doc('c', '0.md')], ['a']),
      change(7, [doc('a', 'a.md', 'indexed'), doc('d', 'd.md')]),
    ];
    const together = applyLibraryChanges(listing, run);
    expect(together).toEqual(follow(listing, run));
    expect(together?.documents.map((d) => `${d.relativePath}:${d.state}`)).toEqual([
      '0.md:indexed',
      'a.md:indexed',
      'bb.md:indexed',
      'd.md:indexed',
    ]);
    expect(together?.revision).toBe(8);
    expect(applyLibraryChanges(listing, run.slice(0, 1))).toBe(listing);
    // A gap inside the run: nothing is applied, the caller lists again.
    expect(applyLibraryChanges(listing, [run[1]!, run[3]!])).toBeNull();
  });

  it('keeps the listing in library order as documents come and go, "file 2" before "file 10"', async () => {
    const { library, feed, changes, folder } = await openFeed();
    for (const name of ['file 10.md', 'file 1.md']) await note(folder, name);
    await library.addFolder(folder);
    await library.whenIdle();
    const start = feed.list();
    expect(start.documents.map((d) => d.relativePath)).toEqual(['file 1.md', 'file 10.md']);
    for (const name of ['file 2.md', 'file 11.md']) await note(folder, name);
    const names = () =>
      follow(start, changes.slice())
        .documents.map((d) => d.relativePath)
        .join();
    await expect.poll(names).toBe('file 1.md,file 2.md,file 10.md,file 11.md');
    expect(
      feed
        .list()
        .documents.map((d) => d.relativePath)
        .join(),
    ).toBe(names());
  });

  it('lists a page at a time, and the pages joined with the changes between them equal the whole', async () => {
    const { library, feed, changes, folder } = await openFeed();
    for (const name of ['e.md', 'c.md', 'a.md', 'b.md', 'd.md']) await note(folder, name);
    await library.addFolder(folder);
    await library.whenIdle();
    const first = feed.list({ limit: 2 });
    expect(first.documents.map((d) => d.relativePath)).toEqual(['a.md', 'b.md']);
    expect(first.omitted).toBe(3);
    const whole = feed.list();
    expect(whole.revision).toBe(first.revision);
    expect(whole.omitted).toBeUndefined();
    expect(feed.list({ limit: 5 }).omitted).toBeUndefined();
    expect(isNewerListing(first, whole)).toBe(true);
    expect(isNewerListing(whole, first)).toBe(false);

    // Between pages one file goes (past the first page) and one comes (before it).
    const seen = changes.length;
    await rm(join(folder, 'd.md'));
    await note(folder, 'aa.md');
    await expect.poll(() => follow(first, changes.slice(seen)).documents.length).toBe(3);
    let held = follow(first, changes.slice(seen));
    // Still a first part after the changes: the window goes on asking for pages.
    expect(held.omitted).toBeDefined();
    const second = feed.list({ after: first.documents.at(-1)!.path, limit: 2 });
    expect(second.documents.map((d) => d.relativePath)).toEqual(['c.md', 'e.md']);
    expect(second.omitted).toBeUndefined();
    held = withPage(held, second)!;
    expect(held).toEqual(feed.list());
    // A page of another revision is not joined: the caller lists again.
    expect(withPage({ ...held, revision: held.revision + 1 }, second)).toBeNull();
  });

  it('a client that missed a change lists again instead of applying the next one', async () => {
    const { library, feed, changes, folder } = await openFeed();
    const start = feed.list();
    await note(folder, 'one.md');
    await library.addFolder(folder);
    await library.whenIdle();
    await expect.poll(() => changes.length).toBeGreaterThan(0);
    await note(folder, 'two.md');
    await expect
      .poll(() => changes.some((c) => c.documents.some((d) => d.relativePath === 'two.md')))
      .toBe(true);
    const last = changes.at(-1)!;
    expect(applyLibraryChange(start, last)).toBeNull();
    // A change already included in a newer listing leaves it as it is.
    const fresh = feed.list();
    expect(applyLibraryChange(fresh, changes[0]!)).toBe(fresh);
  });

  it('flush sends a state that passes within one tick, so a client never keeps it', async () => {
    const { library, feed, changes, folder } = await openFeed();
    await note(folder, 'one.md');
    await library.addFolder(folder);
    await library.whenIdle();
    const start = feed.list();
    const doc = start.documents[0]!;
    library.updateDocument(doc.id, { state: 'failed', error: 'It cannot be read.' });
    feed.flush();
    // Retried: queued, sent at once; it fails again before the library's next tick.
    library.updateDocument(doc.id, { state: 'queued', error: null });
    feed.flush();
    library.updateDocument(doc.id, { state: 'failed', error: 'It cannot be read.' });
    await expect.poll(() => follow(start, changes.slice()).documents[0]?.state).toBe('failed');
    const states = changes.flatMap((change) => change.documents.map((d) => d.state));
    expect(states.slice(-3)).toEqual(['failed', 'queued', 'failed']);
  });
});
