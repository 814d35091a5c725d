import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { parseDocument } from '../../src/core/documents/parseDocument';
import { Index } from '../../src/core/index/openIndex';
import { sharedDir, tempDir, withoutCorpus } from '../helpers/shared';
import { documentRow, HashTextEmbedder } from './helpers';

const noCorpus = withoutCorpus('the index on corpus PDFs');

const FILES = ['corpus/pdfjs/tracemonkey.pdf', 'corpus/docling/pdf__multi_page.pdf'];

describe.skipIf(noCorpus)('Index on real PDFs', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let store: Index;
  const pageTexts = new Map<string, string[]>();

  beforeAll(async () => {
    dir = await tempDir('quire-index-corpus-');
    store = await Index.open({ uri: dir.path });
    for (const file of FILES) {
      const path = join(sharedDir, file);
      const contentHash = createHash('sha256')
        .update(await readFile(path))
        .digest('hex');
      const parsed = await parseDocument(path, { kind: 'pdf' });
      pageTexts.set(
        basename(file),
        parsed.pages.map((page) => page.text),
      );
      await store.content.put(contentHash, parsed, [], { fileName: basename(file) });
      await store.documents.upsert(
        documentRow(basename(file), contentHash, { path, pages: parsed.pages.length }),
      );
    }
    await store.vectors.setEmbedders({ text: new HashTextEmbedder(), page: null });
    await store.vectors.embedPending({ batchSize: 64 });
  });

  afterAll(async () => {
    await store?.dispose();
    await dir?.cleanup();
  });

  /** Five consecutive long words from the middle of a page: a phrase that names that page. */
  function phraseFrom(text: string): string {
    const words = text.match(/[A-Za-z]{5,}/g) ?? [];
    const at = Math.floor(words.length / 2);
    return words.slice(at, at + 5).join(' ');
  }

  it('finds the page a phrase was taken from, in every mode', async () => {
    const pages = pageTexts.get('tracemonkey.pdf')!;
    for (const page of [2, 7, 11]) {
      const phrase = phraseFrom(pages[page - 1]!);
      for (const mode of ['bm25', 'hybrid'] as const) {
        const hits = await store.search.chunks(phrase, { k: 3, mode });
        expect(
          hits.map((hit) => `${hit.documentId}#${hit.page}`),
          `${mode}: ${phrase}`,
        ).toContain(`tracemonkey.pdf#${page}`);
        expect(hits[0]!.snippet.length).toBeGreaterThan(0);
      }
    }
  });

  it('keeps a filtered search inside its document and returns boxes on the page', async () => {
    const hits = await store.search.chunks('trace compilation loops', {
      k: 5,
      filter: { documentIds: ['pdf__multi_page.pdf'] },
    });
    expect(hits.every((hit) => hit.documentId === 'pdf__multi_page.pdf')).toBe(true);
    const [best] = await store.search.chunks('trace tree type specialization', { k: 1 });
    expect(best!.documentId).toBe('tracemonkey.pdf');
    expect(best!.boxes.length).toBeGreaterThan(0);
    const page = await store.content.page('tracemonkey.pdf', best!.page);
    // The page says where its text came from: the PDF's own text layer, read by PDFium.
    expect(page.textSource).toEqual({ method: 'layer', engine: 'pdfium' });
    for (const box of best!.boxes) {
      expect(box.x + box.width).toBeLessThanOrEqual(page.width + 1);
      expect(box.y + box.height).toBeLessThanOrEqual(page.height + 1);
    }
  });
});
