import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parsePdf } from '../../src/core/documents/pdf/parsePdf';
import { corpusDir, sharedDir, withoutCorpus } from '../helpers/shared';
import { coverage, distinctWords, pdftotextPage, requirePdftotext } from './helpers';

const noCorpus = withoutCorpus('right-to-left and CJK corpus PDFs');

const arabicLetters = /[\u0621-\u064A]/g;

describe.skipIf(noCorpus)('right-to-left and CJK text', () => {
  beforeAll(() => requirePdftotext());

  it.each(['pdf__right_to_left_01', 'pdf__right_to_left_02', 'pdf__right_to_left_03'])(
    '%s keeps its Arabic words, in reading order',
    async (name) => {
      const path = join(corpusDir, 'docling', `${name}.pdf`);
      const parsed = await parsePdf(path);
      const text = parsed.pages.map((page) => page.text).join('\n');
      expect(text.match(arabicLetters)?.length ?? 0).toBeGreaterThan(200);
      // Poppler keeps a stretched letter drawn twice at one spot as two letters, PDFium as one (as the
      // transcription has it), so the reference below is the stricter measure.
      const poppler = parsed.pages.map((page) => pdftotextPage(path, page.page)).join('\n');
      expect(coverage(distinctWords(poppler), distinctWords(text))).toBeGreaterThanOrEqual(0.75);
      // The reference transcription's words are found, and its first words come first (right-to-left order).
      const reference = readFileSync(join(sharedDir, 'qa', 'text', `${name}.md`), 'utf8');
      const referenceWords = [...distinctWords(reference)].filter((word) =>
        /^[\u0621-\u064A]{3,}$/u.test(word),
      );
      const textWords = distinctWords(text);
      expect(coverage(new Set(referenceWords), textWords)).toBeGreaterThanOrEqual(0.8);
      const opening = referenceWords.slice(0, 4).filter((word) => textWords.has(word));
      expect(opening.length).toBeGreaterThanOrEqual(2);
      expect(text.indexOf(opening[0]!)).toBeLessThan(text.indexOf(opening[1]!));
    },
  );

  it('folds Arabic presentation forms so the words can be searched', async () => {
    const parsed = await parsePdf(join(corpusDir, 'pdfjs', 'ArabicCIDTrueType.pdf'));
    const text = parsed.pages[0]!.text;
    expect(text).toContain('العربية');
    expect(text).not.toMatch(/[\uFE70-\uFEFF]/);
    // Right-to-left lines read from the rightmost word.
    const firstLine = text.split('\n')[0]!;
    expect(firstLine.indexOf('انواع')).toBeLessThan(firstLine.indexOf('العربية'));
  });

  it('keeps vertical Japanese text', async () => {
    const parsed = await parsePdf(join(corpusDir, 'pdfjs', 'vertical.pdf'));
    const text = parsed.pages.map((page) => page.text).join('\n');
    expect(text).toContain('あいうえお');
    expect(text).toContain('日本語');
    expect(parsed.chunks.some((chunk) => chunk.text.includes('日本語'))).toBe(true);
  });
});
