import { copyFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createCore, type Core } from '../../src/core/createCore';
import { OcrStore } from '../../src/core/documents/ocr/ocrStore';
import { parsePdf } from '../../src/core/documents/pdf/parsePdf';
import { createDocumentPool } from '../../src/core/documents/pool/documentPool';
import { PageImageStore } from '../../src/core/documents/render/pageImageStore';
import { openPageImage } from '../../src/core/pages/readPageImage';
import { PageTranscriber } from '../../src/core/ingestion/pageTranscriber';
import type { IndexedDocument } from '../../src/core/index/records';
import { OpenAIClient } from '../../src/core/models/openai/openaiClient';
import { OpenAIChatModel } from '../../src/core/models/openai/openaiModels';
import { startOpenAIStandIn } from '../standins/openaiStandIn';
import type { BoundingBox, ChunkSearchResult, PageImage } from '../../src/shared/domain/search';
import { corpusDir, tempDir, withoutCorpus } from '../helpers/shared';

const noCorpus = withoutCorpus('OCR in ingestion of corpus scans');

const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
});

async function indexed(dataDir: string, folder: string, ocr?: boolean): Promise<Core> {
  const core = createCore({
    dataDir,
    findModels: false,
    detectServers: false,
    embedInBackground: false,
    workers: 1,
    ...(ocr === undefined ? {} : { ocr }),
  });
  await core.start();
  if (core.library.snapshot().roots.length === 0) await core.library.addFolder(folder);
  do {
    await core.library.whenIdle();
    await core.ingestion.whenIdle();
  } while (core.library.snapshot().scanning);
  return core;
}

async function call<T>(core: Core, name: Parameters<Core['dispatch']>[0], input: unknown): Promise<T> {
  const result = await core.dispatch(name, input as never);
  if (!result.ok) throw new Error(result.error.message);
  return result.value as T;
}

/** The box around every dark pixel of a page image, in page points: where the words are. */
async function inkBox(core: Core, page: PageImage): Promise<BoundingBox> {
  const { bytes } = await openPageImage(core, page.documentId, page.page, page.size);
  const { data, info } = await sharp(bytes).greyscale().raw().toBuffer({ resolveWithObject: true });
  let left = Infinity;
  let top = Infinity;
  let right = -Infinity;
  let bottom = -Infinity;
  for (let y = 0; y < info.height; y++) {
    for (let x = 0; x < info.width; x++) {
      if (data[y * info.width + x]! < 128) {
        left = Math.min(left, x);
        top = Math.min(top, y);
        right = Math.max(right, x + 1);
        bottom = Math.max(bottom, y + 1);
      }
    }
  }
  const sx = page.pageWidth / info.width;
  const sy = page.pageHeight / info.height;
  return { x: left * sx, y: top * sy, width: (right - left) * sx, height: (bottom - top) * sy };
}

function overlap(a: BoundingBox, b: BoundingBox): number {
  const width = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const height = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  if (width <= 0 || height <= 0) return 0;
  const shared = width * height;
  return shared / (a.width * a.height + b.width * b.height - shared);
}

describe.skipIf(noCorpus)('OCR in ingestion', () => {
  it('waits while OCR is off, reads the page once it is on, and the citation lands on the words', async () => {
    const folder = await tempDir();
    const data = await tempDir();
    cleanups.push(folder.cleanup, data.cleanup);
    await copyFile(
      join(corpusDir, 'docling', 'ocr__ocr_test_rotated_90.pdf'),
      join(folder.path, 'turned.pdf'),
    );

    const off = await indexed(data.path, folder.path, false);
    try {
      const [doc] = off.library.snapshot().documents;
      expect(doc).toMatchObject({
        state: 'indexed',
        ocr: { pagesNeedingOcr: 1, pagesWaiting: 1, pagesRead: 0 },
      });
      // A scan has no text to tell its language by, and says so.
      expect(doc!.language).toBe('und');
      expect(
        (await call<ChunkSearchResult>(off, 'search.query', { query: 'Docling bundles', mode: 'bm25' })).hits,
      ).toEqual([]);
      expect((await call<{ settings: { enabled: boolean } }>(off, 'ocr.settings', {})).settings.enabled).toBe(
        false,
      );
    } finally {
      await off.dispose();
    }

    // The saved setting is on (the default): the next start reads the page the first run left.
    const on = await indexed(data.path, folder.path);
    cleanups.push(() => on.dispose());
    const [doc] = on.library.snapshot().documents;
    expect(doc!.ocr).toMatchObject({ pagesNeedingOcr: 1, pagesRead: 1, pagesWaiting: 0, pagesUnreadable: 0 });
    expect(doc!.ocr!.confidence).toBeGreaterThan(0.8);
    // The text OCR gave tells its language.
    expect(doc!.language).toBe('eng');
    const { hits } = await call<ChunkSearchResult>(on, 'search.query', {
      query: 'Docling bundles PDF document conversion',
      mode: 'bm25',
    });
    expect(hits[0]).toMatchObject({ path: join(folder.path, 'turned.pdf'), page: 1 });
    const page = await call<PageImage>(on, 'pages.get', { documentId: doc!.id, page: 1 });
    expect(page.textSource).toMatchObject({ method: 'ocr', engine: 'tesseract', languages: ['eng'] });
    expect(page.textSource!.ocr).toMatchObject({ reason: 'missing', problem: null });
    // The page is turned a quarter: the highlight must cover the ink, not where upright text would be.
    const boxes = hits[0]!.boxes;
    const union = boxes.reduce((a, b) => ({
      x: Math.min(a.x, b.x),
      y: Math.min(a.y, b.y),
      width: Math.max(a.x + a.width, b.x + b.width) - Math.min(a.x, b.x),
      height: Math.max(a.y + a.height, b.y + b.height) - Math.min(a.y, b.y),
    }));
    expect(overlap(union, await inkBox(on, page))).toBeGreaterThan(0.7);

    // Another language: the page is read again with it.
    const view = await call<{ settings: { languages: string[] } }>(on, 'ocr.configure', {
      languages: ['eng', 'fra'],
    });
    expect(view.settings.languages).toEqual(['eng', 'fra']);
    await on.ingestion.whenIdle();
    const again = await call<PageImage>(on, 'pages.get', { documentId: doc!.id, page: 1 });
    expect(again.textSource).toMatchObject({ method: 'ocr', languages: ['eng', 'fra'] });
    await expect(call(on, 'ocr.configure', { languages: ['xyz'] })).rejects.toThrow(/cannot read xyz/);
  }, 300_000);
});

describe.skipIf(noCorpus)('vision transcription of pages OCR read poorly', () => {
  it('asks the see model (a stand-in OpenAI-compatible server) and keeps OCR boxes for its words', async () => {
    const data = await tempDir();
    cleanups.push(data.cleanup);
    const path = join(corpusDir, 'docling', 'ocr__nemotron_multipage.pdf');
    const contentHash = createHash('sha256')
      .update(await readFile(path))
      .digest('hex');
    const store = new OcrStore(join(data.path, 'ocr'));
    const key = { engine: 'tesseract', languages: ['eng'] };
    // What a poor OCR pass left: misread words, low confidence.
    await store.put(contentHash, 1, {
      version: 1,
      ...key,
      turn: 0,
      deskewRadians: 0,
      confidence: 0.41,
      lines: [
        [
          ['Docl1ng', 0.12, 0.09, 0.12, 0.02, 0.4],
          ['bvndles', 0.25, 0.09, 0.13, 0.02, 0.4],
        ],
      ],
      problem: null,
      transcription: null,
    });
    const server = await startOpenAIStandIn([{ id: 'vision-standin', kind: 'chat' }], {
      reply: () => ['Docling', ' bundles'],
    });
    cleanups.push(() => server.close());
    const pool = createDocumentPool({ size: 1 });
    cleanups.push(() => pool.dispose());
    const model = new OpenAIChatModel(new OpenAIClient({ baseUrl: server.baseUrl }), 'vision-standin', true);
    const owner: IndexedDocument = {
      id: 'doc',
      path,
      rootId: 'root',
      contentHash,
      kind: 'pdf',
      title: null,
      pages: 4,
      bytes: 1,
      modifiedMs: 0,
      state: 'indexed',
      error: null,
      indexedAt: 0,
    };
    const source = { storeRoot: store.root, contentHash, engine: 'auto' as const, languages: ['eng'] };
    const transcriber = (see: OpenAIChatModel | null) =>
      new PageTranscriber({
        models: { chatModel: async () => see },
        store,
        pool,
        images: new PageImageStore(join(data.path, 'pages')),
        longEdge: 400,
        password: async () => undefined,
      });
    // Without a vision model nothing changes.
    expect(
      await transcriber(null).transcribeWeakPages(owner, [1], source, new AbortController().signal),
    ).toBe(0);
    expect(
      await transcriber(model).transcribeWeakPages(owner, [1], source, new AbortController().signal),
    ).toBe(1);
    const [request] = server.bodiesAt('/v1/chat/completions');
    expect(JSON.stringify(request)).toMatch(/data:image\/webp;base64,/);
    const parsed = await parsePdf(path, { ocr: await store.all(contentHash, key) });
    expect(parsed.pages[0]!.text).toBe('Docling bundles');
    expect(parsed.pages[0]!.textSource).toMatchObject({
      method: 'ocr',
      engine: model.id,
      ocr: { transcribedBy: model.id, reason: 'missing' },
    });
    expect(parsed.chunks[0]!.boxes[0]!.x).toBeCloseTo(0.12 * parsed.pages[0]!.width);
  }, 120_000);
});
