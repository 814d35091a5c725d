import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../src/core/createCore';
import { openPageImage } from '../../src/core/pages/readPageImage';
import { mostlyRepeats, repeatedPagesPdf } from '../helpers/repeatedPagesPdf';
import { tempDir } from '../helpers/shared';
import { untilIndexed } from '../helpers/untilIndexed';

const PUMP = 'The Zephyr-9 pump was serviced in FY2022; spare part SKU0042 meets ISO9001.';

describe('a PDF claiming 20,000 pages of one page object, beside a normal file', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let core: Core;

  beforeAll(async () => {
    dir = await tempDir('quire-page-bounds-');
    const folder = join(dir.path, 'library');
    await mkdir(folder);
    await writeFile(join(folder, 'kids.pdf'), repeatedPagesPdf(mostlyRepeats(20_000)));
    await writeFile(join(folder, 'pump.txt'), PUMP);
    core = createCore({
      dataDir: join(dir.path, 'data'),
      findModels: false,
      detectServers: false,
      embedInBackground: false,
      ocr: false,
      imageLongEdge: 200,
      maxPagesPerDocument: 2_000,
    });
    await core.start();
    await core.library.addFolder(folder);
    await untilIndexed(core);
  }, 300_000);

  afterAll(async () => {
    await core?.dispose();
    await dir.cleanup();
  });

  const document = (name: string) => core.library.snapshot().documents.find((d) => d.path.endsWith(name))!;

  it('indexes the PDF up to the page limit and says so, and the file beside it is searchable', async () => {
    const kids = document('kids.pdf');
    expect(kids.state).toBe('indexed');
    expect(kids.pages).toBe(2_000);
    expect(kids.error).toBe(
      'Indexed the first 2,000 of 20,000 pages (the limit per document; --max-pages raises it); ' +
        '1,998 of them repeat an earlier page and are searchable on it.',
    );
    expect(core.index.documents.get(kids.id)?.error).toBe(kids.error);
    expect(document('pump.txt').state).toBe('indexed');
    for (const query of ['Zephyr', 'SKU0042']) {
      const hits = await core.index.search.chunks(query, { k: 5, mode: 'bm25' });
      expect(hits[0]?.path).toMatch(/pump\.txt$/);
    }
    // The distinct pages' text is in the index once each.
    const repeated = await core.index.search.chunks('repeated', { k: 10, mode: 'bm25' });
    expect(repeated.map((hit) => hit.page)).toEqual([1]);
  });

  it('draws each page object once, and shows every page the document has', async () => {
    const kids = document('kids.pdf');
    const contentHash = core.index.documents.get(kids.id)!.contentHash!;
    expect(await core.index.content.pagesWithoutImages(contentHash)).toBe(0);
    const first = await openPageImage(core, kids.id, 1, 'thumbnail');
    const last = await openPageImage(core, kids.id, 2_000, 'thumbnail');
    expect(last.image.version).toBe(first.image.version);
    expect(Buffer.from(last.bytes).equals(Buffer.from(first.bytes))).toBe(true);
    await expect(openPageImage(core, kids.id, 2_001, 'thumbnail')).rejects.toMatchObject({
      code: 'not_found',
      message: expect.stringContaining('has 2000 pages'),
    });
  });
});

describe('a document cut at the page limit, after the limit is raised', () => {
  it('is read again up to the new limit on the next start, and its note goes', async () => {
    const dir = await tempDir('quire-page-limit-raised-');
    const folder = join(dir.path, 'library');
    await mkdir(folder);
    await writeFile(join(folder, 'kids.pdf'), repeatedPagesPdf(mostlyRepeats(300)));
    const open = async (maxPagesPerDocument: number) => {
      const core = createCore({
        dataDir: join(dir.path, 'data'),
        findModels: false,
        detectServers: false,
        embedInBackground: false,
        renderImages: false,
        ocr: false,
        maxPagesPerDocument,
      });
      await core.start();
      return core;
    };
    try {
      const first = await open(100);
      await first.library.addFolder(folder);
      await untilIndexed(first);
      const cut = first.library.snapshot().documents[0]!;
      expect([cut.pages, cut.error?.slice(0, 30)]).toEqual([100, 'Indexed the first 100 of 300 p']);
      await first.dispose();

      // The same limit again: nothing to read.
      const same = await open(100);
      await untilIndexed(same);
      expect(same.library.snapshot().documents[0]!.pages).toBe(100);
      await same.dispose();

      const raised = await open(1_000);
      await untilIndexed(raised);
      const whole = raised.library.snapshot().documents[0]!;
      expect(whole.pages).toBe(300);
      expect(whole.error ?? '').not.toContain('the limit per document');
      await raised.dispose();
    } finally {
      await dir.cleanup();
    }
  }, 300_000);
});
