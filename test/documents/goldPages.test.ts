import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parsePdf } from '../../src/core/documents/pdf/parsePdf';
import { sharedDir, withoutCorpus } from '../helpers/shared';
import { coverage, distinctWords, pdftotextPage, requirePdftotext } from './helpers';

const noCorpus = withoutCorpus('PDF text of the QA set gold pages');

interface QaRow {
  source: string;
  doc: string;
  gold_pages: number[];
}

/** About 25 gold pages, taken round-robin across sources so every kind of document is represented. */
function sampleGoldPages(count: number): Array<{ source: string; path: string; page: number }> {
  const rows = readFileSync(join(sharedDir, 'qa', 'dev.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as QaRow)
    .filter((row) => row.doc.endsWith('.pdf') && existsSync(join(sharedDir, row.doc)));
  const bySource = new Map<string, Array<{ source: string; path: string; page: number }>>();
  const seen = new Set<string>();
  for (const row of rows) {
    for (const page of row.gold_pages) {
      const key = `${row.doc}#${page}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const list = bySource.get(row.source) ?? [];
      list.push({ source: row.source, path: join(sharedDir, row.doc), page });
      bySource.set(row.source, list);
    }
  }
  const queues = [...bySource.values()].map((list) => list.filter((_, i) => i % 3 === 0));
  const sample: Array<{ source: string; path: string; page: number }> = [];
  while (sample.length < count && queues.some((queue) => queue.length > 0)) {
    for (const queue of queues) {
      const next = queue.shift();
      if (next && sample.length < count) sample.push(next);
    }
  }
  return sample;
}

describe.skipIf(noCorpus)('PDF text of gold evidence pages', () => {
  beforeAll(() => requirePdftotext());

  it('the chunks of each gold page hold at least 80% of the distinct words pdftotext finds there', async () => {
    const sample = sampleGoldPages(25);
    expect(sample.length).toBeGreaterThanOrEqual(20);
    const shortfalls: string[] = [];
    for (const { path, page } of sample) {
      const parsed = await parsePdf(path, { pages: [page] });
      const chunkText = parsed.chunks
        .filter((chunk) => chunk.page === page)
        .map((chunk) => chunk.text)
        .join('\n');
      const share = coverage(distinctWords(pdftotextPage(path, page)), distinctWords(chunkText));
      const { width, height } = parsed.pages[0]!;
      for (const box of parsed.chunks.flatMap((chunk) => chunk.boxes)) {
        const inside =
          box.x >= 0 &&
          box.y >= 0 &&
          box.x + box.width <= width + 0.01 &&
          box.y + box.height <= height + 0.01;
        if (!inside) shortfalls.push(`${path} p${page}: box off the page ${JSON.stringify(box)}`);
      }
      if (share < 0.8) shortfalls.push(`${path} p${page}: ${(share * 100).toFixed(1)}%`);
    }
    expect(shortfalls).toEqual([]);
  });

  it('chunk offsets, pages and boxes agree with the page text', async () => {
    const path = join(sharedDir, 'corpus', 'pdfjs', 'tracemonkey.pdf');
    const parsed = await parsePdf(path, { pages: [1, 2, 3] });
    expect(parsed.title).toContain('Trace-based Just-in-Time');
    expect(parsed.chunks.length).toBeGreaterThan(3);
    parsed.chunks.forEach((chunk, i) => {
      expect(chunk.index).toBe(i);
      const page = parsed.pages.find((candidate) => candidate.page === chunk.page)!;
      expect(page.text.slice(chunk.charStart, chunk.charEnd)).toBe(chunk.text);
      const words = chunk.text.split(/\s+/).filter(Boolean).length;
      expect(words).toBeLessThanOrEqual(350);
      expect(chunk.boxes.length).toBeGreaterThan(0);
      // Boxes are merged per block: far fewer than the chunk's lines.
      expect(chunk.boxes.length).toBeLessThan(chunk.text.split('\n').length + 1);
      for (const box of chunk.boxes) {
        expect(box.x).toBeGreaterThanOrEqual(0);
        expect(box.y).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width).toBeLessThanOrEqual(page.width + 1);
        expect(box.y + box.height).toBeLessThanOrEqual(page.height + 1);
      }
    });
    // Most of the body text sits in chunks of a useful size, not in fragments.
    const sizable = parsed.chunks.filter((chunk) => chunk.text.split(/\s+/).length >= 100);
    expect(sizable.length / parsed.chunks.length).toBeGreaterThan(0.5);
    expect(parsed.chunks.some((chunk) => chunk.heading === 'Abstract')).toBe(true);
    expect(parsed.pages.every((page) => !page.needsOcr)).toBe(true);
  });

  it('flags pages without a usable text layer for OCR', async () => {
    const scanned = join(sharedDir, 'corpus', 'docling', 'ocr__ocr_test.pdf');
    const parsed = await parsePdf(scanned);
    expect(parsed.pages[0]!.needsOcr).toBe(true);
  });
});
