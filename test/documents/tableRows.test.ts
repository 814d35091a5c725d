import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parsePdf } from '../../src/core/documents/pdf/parsePdf';
import { corpusDir, sharedDir, withoutCorpus } from '../helpers/shared';
import { distinctWords, requirePdftotext } from './helpers';

const noCorpus = withoutCorpus('table rows of the ICDAR 2013 corpus PDFs');

interface TableRegion {
  doc: string;
  page: number;
  /** PDF points, origin bottom-left (as the ICDAR 2013 ground truth gives them). */
  x1: number;
  y1: number;
  x2: number;
  y2: number;
}

function readRegions(): TableRegion[] {
  const [, ...lines] = readFileSync(join(sharedDir, 'qa', 'tables', 'table_regions.tsv'), 'utf8')
    .trim()
    .split('\n');
  return lines.map((line) => {
    const [doc, , , page, x1, y1, x2, y2] = line.split('\t');
    return { doc: doc!, page: Number(page), x1: Number(x1), y1: Number(y1), x2: Number(x2), y2: Number(y2) };
  });
}

interface Word {
  text: string;
  x: number;
  y: number;
}

/** Words of a page with their centres, origin top-left, as poppler places them. */
function popplerWords(path: string, page: number): { height: number; words: Word[] } {
  const xhtml = execFileSync('pdftotext', ['-bbox', '-f', String(page), '-l', String(page), path, '-'], {
    encoding: 'utf8',
  });
  const height = Number(/<page width="[\d.]+" height="([\d.]+)"/.exec(xhtml)?.[1]);
  const words: Word[] = [];
  const pattern = /<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/g;
  for (let match = pattern.exec(xhtml); match; match = pattern.exec(xhtml)) {
    const [, xMin, yMin, xMax, yMax, text] = match;
    const decoded = text!
      .replace(/&amp;/g, '&')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&apos;/g, "'");
    words.push({ text: decoded, x: (Number(xMin) + Number(xMax)) / 2, y: (Number(yMin) + Number(yMax)) / 2 });
  }
  return { height, words };
}

/** Words inside the region, grouped into rows by their vertical centre. */
function regionRows(region: TableRegion, height: number, words: readonly Word[]): string[][] {
  const top = height - region.y2;
  const bottom = height - region.y1;
  const inside = words
    .filter((word) => word.x >= region.x1 && word.x <= region.x2 && word.y >= top && word.y <= bottom)
    .sort((a, b) => a.y - b.y || a.x - b.x);
  const rows: Array<{ y: number; words: string[] }> = [];
  for (const word of inside) {
    const row = rows[rows.length - 1];
    if (row && Math.abs(row.y - word.y) < 2.5) row.words.push(word.text);
    else rows.push({ y: word.y, words: [word.text] });
  }
  return rows.map((row) => row.words);
}

describe.skipIf(noCorpus)('table rows in chunks (ICDAR 2013 tables)', () => {
  beforeAll(() => requirePdftotext());

  it('keeps every table row whole inside one chunk', async () => {
    const regions = readRegions();
    const byDoc = new Map<string, TableRegion[]>();
    for (const region of regions) byDoc.set(region.doc, [...(byDoc.get(region.doc) ?? []), region]);
    let rowsChecked = 0;
    const split: string[] = [];
    for (const [doc, docRegions] of byDoc) {
      const path = join(corpusDir, 'icdar2013_camelot', doc);
      const parsed = await parsePdf(path);
      for (const region of docRegions) {
        const { height, words } = popplerWords(path, region.page);
        const chunkWords = parsed.chunks
          .filter((chunk) => chunk.page === region.page)
          .map((chunk) => distinctWords(chunk.text));
        const pageWords = distinctWords(parsed.pages[region.page - 1]!.text);
        for (const row of regionRows(region, height, words)) {
          // Only words both extractors read the same way can be tracked.
          const wanted = [...distinctWords(row.join(' '))].filter((word) => pageWords.has(word));
          if (wanted.length < 2) continue;
          rowsChecked++;
          if (!chunkWords.some((set) => wanted.every((word) => set.has(word)))) {
            split.push(`${doc} p${region.page}: ${row.join(' ')}`);
          }
        }
      }
    }
    console.log(
      `table rows checked: ${rowsChecked}, split across chunks: ${split.length}\n${split.join('\n')}`,
    );
    expect(rowsChecked).toBeGreaterThan(500);
    // Stacked header cells that the PDF writes after the table body are read in stream order, so a
    // header line can land in another chunk; body rows must never split.
    expect(split.length).toBeLessThanOrEqual(Math.floor(rowsChecked * 0.01));
    expect(split.filter((row) => /\d/.test(row.split(': ')[1] ?? ''))).toEqual([]);
  });
});
