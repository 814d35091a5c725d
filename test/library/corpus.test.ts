/**
 * Page counts on the real corpus: Quire counts a PDF's pages when it reads the file (listing opens
 * nothing), with the same pdfjs opening the reader uses; a file it cannot open is named with a reason.
 */
import { readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { countPdfPages } from '../../src/core/documents/pdf/countPdfPages';
import { toErrorInfo } from '../../src/shared/errors';
import { corpusDir, readManifest, withoutCorpus } from '../helpers/shared';

const noCorpus = withoutCorpus('page counts of the whole corpus');

async function pdfsUnder(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.toLowerCase().endsWith('.pdf'))
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
}

describe.skipIf(noCorpus)('page counts on the real corpus', () => {
  it('match what MANIFEST.tsv gives for every readable PDF', async () => {
    const expected = readManifest().filter((row) => row.pages !== null && !row.localPath.startsWith('odd/'));
    expect(expected.length).toBeGreaterThan(200);
    const mismatches: string[] = [];
    for (const row of expected.filter((r) => r.localPath.toLowerCase().endsWith('.pdf'))) {
      const counted = await countPdfPages(join(corpusDir, row.localPath)).catch(
        (error: unknown) => toErrorInfo(error).message,
      );
      if (counted !== row.pages)
        mismatches.push(`${row.localPath}: manifest ${row.pages}, counted ${counted}`);
    }
    expect(mismatches).toEqual([]);
  }, 180_000);

  it('give every odd PDF its pages or a clear error, without crashing or hanging', async () => {
    const pdfs = await pdfsUnder(join(corpusDir, 'odd'));
    expect(pdfs.length).toBeGreaterThanOrEqual(40);
    const codes: string[] = [];
    for (const path of pdfs) {
      try {
        expect(await countPdfPages(path), relative(corpusDir, path)).toBeGreaterThan(0);
      } catch (error) {
        const info = toErrorInfo(error);
        expect(info.message.length, `${relative(corpusDir, path)}: ${info.message}`).toBeGreaterThan(10);
        codes.push(info.code);
      }
    }
    expect(codes.filter((code) => code === 'needs_password').length).toBeGreaterThanOrEqual(8);
  }, 120_000);
});
