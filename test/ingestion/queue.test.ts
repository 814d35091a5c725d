import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { DocumentPool } from '../../src/core/documents/pool/documentPool';
import { PageImageStore } from '../../src/core/documents/render/pageImageStore';
import type { ParsedDocument } from '../../src/core/documents/types';
import { Index } from '../../src/core/index/openIndex';
import { Ingestion } from '../../src/core/ingestion/ingestion';
import { PasswordVault } from '../../src/core/ingestion/passwordVault';
import { LibraryService } from '../../src/core/library/libraryService';
import type { IndexProgress } from '../../src/shared/domain/library';
import { QuireError } from '../../src/shared/errors';
import { tempDir } from '../helpers/shared';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** A document pool test double: reads text files itself and fails the files the test names. */
function scriptedPool(
  failures: Map<string, () => Error>,
  order: string[],
  onParse: () => void,
): DocumentPool {
  return {
    size: 1,
    parse: async (path: string) => {
      onParse();
      order.push(path.split('/').pop()!);
      const fail = failures.get(path.split('/').pop()!);
      if (fail) throw fail();
      const parsed: ParsedDocument = {
        kind: 'text',
        title: null,
        pages: [{ page: 1, width: 612, height: 792, text: `contents of ${path}`, needsOcr: false }],
        chunks: [
          {
            index: 0,
            page: 1,
            text: `contents of ${path}`,
            charStart: 0,
            charEnd: 10,
            boxes: [],
            heading: null,
          },
        ],
      };
      return parsed;
    },
    render: async () => [],
    pending: () => 0,
    close: async () => undefined,
  } as unknown as DocumentPool;
}

async function setUp(files: string[], failures = new Map<string, () => Error>()) {
  const data = await tempDir();
  const folder = await tempDir();
  cleanups.push(data.cleanup, folder.cleanup);
  for (const name of files) await writeFile(join(folder.path, name), `text of ${name}\n`);
  const library = new LibraryService({ dataDir: data.path, watch: false, changeDelayMs: 10 });
  const index = await Index.open({ uri: join(data.path, 'index') });
  const order: string[] = [];
  const doneWhenRead: number[] = [];
  const queue: Ingestion = new Ingestion({
    library,
    index,
    pool: scriptedPool(failures, order, () => doneWhenRead.push(queue.progress().filesDone)),
    images: new PageImageStore(join(data.path, 'pages')),
    passwords: new PasswordVault(null),
    maxAttempts: 3,
    // One file at a time, as the one scripted worker reads them: the order and progress below rely on it.
    concurrency: 1,
    retryDelayMs: 5,
    maintenanceDelayMs: 0,
  });
  cleanups.unshift(async () => {
    await queue.dispose();
    await library.dispose();
    await index.dispose();
  });
  await library.start(index.documents);
  queue.start();
  const progress: IndexProgress[] = [];
  queue.events.on('progress', (p) => progress.push(p));
  return { library, index, queue, order, progress, doneWhenRead, folder: folder.path };
}

async function settle(library: LibraryService, queue: Ingestion) {
  do {
    await library.whenIdle();
    await queue.whenIdle();
  } while (library.snapshot().scanning);
}

describe('the ingestion queue', () => {
  it('retries a file that keeps failing with back-off, then quarantines it with the reason', async () => {
    let attempts = 0;
    const failures = new Map([
      [
        'flaky.txt',
        () => {
          attempts++;
          return new QuireError('timeout', 'Reading took longer than 180 s.');
        },
      ],
    ]);
    const { library, queue, folder } = await setUp(['flaky.txt', 'fine.txt'], failures);
    await library.addFolder(folder);
    await settle(library, queue);
    const byName = Object.fromEntries(library.snapshot().documents.map((d) => [d.relativePath, d]));
    expect(attempts).toBe(3);
    expect(byName['flaky.txt']).toMatchObject({ state: 'quarantined' });
    expect(byName['flaky.txt']?.error).toMatch(/after 3 attempts.*180 s/);
    expect(byName['fine.txt']).toMatchObject({ state: 'indexed' });
  });

  it('pauses and resumes, and reports files and pages done with an estimate', async () => {
    const { library, queue, order, progress, doneWhenRead, folder } = await setUp([
      'a.txt',
      'b.txt',
      'c.txt',
    ]);
    queue.pause();
    await library.addFolder(folder);
    await library.whenIdle();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(order).toEqual([]);
    expect(queue.progress()).toMatchObject({ paused: true, filesDone: 0, filesTotal: 3 });
    queue.resume();
    await settle(library, queue);
    expect(order).toHaveLength(3);
    const last = progress.at(-1)!;
    expect(last).toMatchObject({ paused: false, filesDone: 3, filesTotal: 3, pagesDone: 3, etaSeconds: 0 });
    // Progress counts each file as it finishes: the queue had done 0, 1 and 2 when it read the next.
    expect(doneWhenRead).toEqual([0, 1, 2]);
  });

  it('fails a file that cannot be read at once, without retrying it', async () => {
    const failures = new Map([
      ['broken.txt', () => new QuireError('unsupported', 'This file cannot be read.')],
    ]);
    const first = await setUp(['broken.txt'], failures);
    await first.library.addFolder(first.folder);
    await settle(first.library, first.queue);
    expect(first.library.snapshot().documents[0]).toMatchObject({ state: 'failed' });
    expect(first.order).toEqual(['broken.txt']);
  });

  it('cancels what is waiting: files go back to listed and progress empties', async () => {
    const { library, queue, order, folder } = await setUp(['a.txt', 'b.txt']);
    queue.pause();
    await library.addFolder(folder);
    await library.whenIdle();
    expect(queue.progress().filesTotal).toBe(2);
    const progress = queue.cancel();
    expect(progress).toMatchObject({ filesTotal: 0, filesDone: 0, paused: false });
    await settle(library, queue);
    expect(order).toEqual([]);
    expect(library.snapshot().documents.map((d) => d.state)).toEqual(['listed', 'listed']);
  });
});
