import { copyFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../src/core/createCore';
import type { DocumentInfo } from '../../src/shared/domain/library';
import type { PageWord, PageWords } from '../../src/shared/domain/pages';
import type { BoundingBox, ChunkSearchResult, PageImage } from '../../src/shared/domain/search';
import { openPageImage } from '../../src/core/pages/readPageImage';
import { highlightSentence } from '../../src/renderer/src/features/pages/sentenceHighlight';
import { corpusDir, tempDir, withoutCorpus } from '../helpers/shared';
import { untilIndexed } from '../helpers/untilIndexed';

const noCorpus = withoutCorpus('page words of corpus files');

/*
 * The viewer's words and highlights on the three kinds of page, with the real readers: a PDF's text
 * layer (pdfjs), a scan read by OCR (tesseract) and a Word file Quire lays out itself.
 */

let core: Core;
const cleanups: Array<() => Promise<void>> = [];

beforeAll(async () => {
  const dir = await tempDir();
  cleanups.push(dir.cleanup);
  const folder = join(dir.path, 'library');
  await mkdir(folder);
  await copyFile(join(corpusDir, 'pdfjs', 'tracemonkey.pdf'), join(folder, 'tracemonkey.pdf'));
  await copyFile(join(corpusDir, 'docling', 'ocr__ocr_test.pdf'), join(folder, 'scan.pdf'));
  await copyFile(join(corpusDir, 'office', 'lorem_ipsum.docx'), join(folder, 'lorem.docx'));
  core = createCore({
    dataDir: join(dir.path, 'data'),
    findModels: false,
    detectServers: false,
    embedInBackground: false,
    workers: 1,
    imageLongEdge: 1000,
  });
  cleanups.unshift(() => core.dispose());
  await core.start();
  await core.library.addFolder(folder);
  await untilIndexed(core);
}, 300_000);

afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
});

async function call<T>(name: Parameters<Core['dispatch']>[0], input: unknown): Promise<T> {
  const result = await core.dispatch(name, input as never);
  if (!result.ok) throw new Error(result.error.message);
  return result.value as T;
}

function documentNamed(name: string): DocumentInfo {
  const doc = core.library.snapshot().documents.find((candidate) => candidate.path.endsWith(name));
  if (!doc) throw new Error(`${name} is not in the library`);
  return doc;
}

/** Share of dark pixels inside a box in page points, on the page's own image. */
async function inkIn(image: PageImage, box: BoundingBox): Promise<number> {
  const { bytes } = await openPageImage(core, image.documentId, image.page, image.size);
  const { data, info } = await sharp(bytes).greyscale().raw().toBuffer({ resolveWithObject: true });
  const scale = info.width / image.pageWidth;
  let dark = 0;
  let total = 0;
  for (let y = Math.floor(box.y * scale); y < Math.ceil((box.y + box.height) * scale); y++) {
    for (let x = Math.floor(box.x * scale); x < Math.ceil((box.x + box.width) * scale); x++) {
      if (x < 0 || y < 0 || x >= info.width || y >= info.height) continue;
      total++;
      if (data[y * info.width + x]! < 128) dark++;
    }
  }
  return total === 0 ? 0 : dark / total;
}

/** The first hit for a query and the words of its page. */
async function citedPage(query: string) {
  const { hits } = await call<ChunkSearchResult>('search.query', { query, mode: 'bm25', k: 1 });
  const hit = hits[0]!;
  const words = await call<PageWords>('pages.words', { documentId: hit.documentId, page: hit.page });
  const image = await call<PageImage>('pages.get', { documentId: hit.documentId, page: hit.page });
  return { hit, words, image };
}

function wordsInside(words: readonly PageWord[], runs: readonly BoundingBox[]): string {
  return wordsInsideList(words, runs)
    .map((word) => word.text)
    .join(' ');
}

function wordsInsideList(words: readonly PageWord[], runs: readonly BoundingBox[]): PageWord[] {
  return words.filter((word) =>
    runs.some(
      (run) =>
        word.box.x + word.box.width / 2 >= run.x &&
        word.box.x + word.box.width / 2 <= run.x + run.width &&
        word.box.y + word.box.height / 2 >= run.y &&
        word.box.y + word.box.height / 2 <= run.y + run.height,
    ),
  );
}

describe.skipIf(noCorpus)('the words of a page and the cited sentence on it', () => {
  it('a PDF text layer: words sit on ink, and the claim’s sentence is marked as runs of words', async () => {
    const { hit, words, image } = await citedPage('trace trees type-specialized native code');
    expect(words.source).toBe('layer');
    expect(words.words.length).toBeGreaterThan(100);
    // Words of the cited passage (body text, not a figure's labels) sit on ink.
    const sample = wordsInsideList(words.words, hit.boxes)
      .filter((word) => /^[A-Za-z]{5,}$/.test(word.text))
      .slice(0, 20);
    expect(sample.length).toBe(20);
    let inked = 0;
    for (const word of sample) if ((await inkIn(image, word.box)) > 0.03) inked++;
    expect(inked).toBeGreaterThanOrEqual(18);

    const sentences = hit.snippet.split(/(?<=[.!?])\s+/).filter((sentence) => sentence.split(' ').length > 6);
    const claim = sentences[1] ?? sentences[0]!;
    const highlight = highlightSentence(words.words, { boxes: hit.boxes, claim, passage: hit.snippet })!;
    expect(highlight.runs.length).toBeGreaterThan(0);
    // The marked words are the claim's sentence: far fewer than the passage, and they read the same.
    const marked = wordsInside(words.words, highlight.runs);
    expect(marked.split(' ').length).toBeLessThan(hit.snippet.split(' ').length);
    const firstWords = claim.split(/\s+/).slice(0, 3).join(' ');
    expect(highlight.text.replace(/-\s/g, '')).toContain(firstWords.replace(/-\s/g, ''));
    // A PDF item holds several words: their boxes inside it are estimates, and the viewer says so.
    expect(highlight.approximate).toMatch(/estimated/);
  }, 120_000);

  it('an OCR’d scan: the engine’s own word boxes, and the sentence marked exactly', async () => {
    const scan = documentNamed('scan.pdf');
    const words = await call<PageWords>('pages.words', { documentId: scan.id, page: 1 });
    const image = await call<PageImage>('pages.get', { documentId: scan.id, page: 1 });
    expect(words.source).toBe('ocr');
    expect(words.words.every((word) => !word.estimated)).toBe(true);
    let inked = 0;
    for (const word of words.words.slice(0, 10)) if ((await inkIn(image, word.box)) > 0.03) inked++;
    expect(inked).toBeGreaterThanOrEqual(8);
    const { hits } = await call<ChunkSearchResult>('search.query', {
      query: 'Docling bundles PDF document conversion',
      mode: 'bm25',
      k: 1,
    });
    const highlight = highlightSentence(words.words, {
      boxes: hits[0]!.boxes,
      claim: 'Docling bundles PDF document conversion to JSON and Markdown.',
      passage: hits[0]!.snippet,
    })!;
    expect(highlight.text).toMatch(/^Docling bundles PDF document conversion/);
    expect(highlight.approximate).toBeNull();
  }, 120_000);

  it('a laid-out Word page: words measured in the drawing’s font land on its ink', async () => {
    const docx = documentNamed('lorem.docx');
    const words = await call<PageWords>('pages.words', { documentId: docx.id, page: 1 });
    const image = await call<PageImage>('pages.get', { documentId: docx.id, page: 1 });
    expect(words.source).toBe('layout');
    expect(words.words.every((word) => !word.estimated)).toBe(true);
    const sample = words.words.filter((word) => word.text.length > 3).slice(0, 20);
    let inked = 0;
    for (const word of sample) if ((await inkIn(image, word.box)) > 0.03) inked++;
    expect(inked).toBeGreaterThanOrEqual(18);
    // The gap between two words on a line holds no ink: the boxes are the words', not the line's.
    const [first, second] = words.words;
    expect(first!.line).toBe(second!.line);
    const gap = {
      x: first!.box.x + first!.box.width + 0.5,
      y: first!.box.y,
      width: second!.box.x - first!.box.x - first!.box.width - 1,
      height: first!.box.height,
    };
    expect(await inkIn(image, gap)).toBe(0);
  }, 120_000);

  it('says why when a page has no words to give', async () => {
    const result = await core.dispatch('pages.words', { documentId: 'no-such-document', page: 1 });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.message).toMatch(/not in the library/);
  });
});
