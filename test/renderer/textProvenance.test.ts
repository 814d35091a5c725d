import { describe, expect, it } from 'vitest';
import type { DocumentOcr } from '../../src/shared/domain/library';
import type { PageTextSource } from '../../src/shared/domain/search';
import { describeDocumentOcr, describePageText } from '../../src/renderer/src/lib/textProvenance';

const ocrOf = (change: Partial<NonNullable<PageTextSource['ocr']>> = {}): PageTextSource['ocr'] => ({
  reason: 'missing',
  engine: 'tesseract',
  languages: ['eng'],
  confidence: 0.91,
  words: 120,
  problem: null,
  ...change,
});

describe("where a page's text came from", () => {
  it('names OCR, its engine and its confidence', () => {
    const source: PageTextSource = { method: 'ocr', engine: 'tesseract', confidence: 0.914, ocr: ocrOf() };
    expect(describePageText(source)).toBe('Text recognised by OCR (Tesseract), 91% confidence');
    expect(describePageText({ ...source, ocr: ocrOf({ reason: 'partial' }) })).toBe(
      'Text recognised by OCR (Tesseract) where the page has no text layer, 91% confidence',
    );
    expect(describePageText({ ...source, ocr: ocrOf({ orientationGuessed: true }) })).toBe(
      'Text recognised by OCR (Tesseract), 91% confidence; which way up the page is was guessed',
    );
  });

  it("names Tesseract's fast model when it read the page", () => {
    const ocr = ocrOf({ engine: 'tesseract-fast' });
    expect(describePageText({ method: 'ocr', engine: 'tesseract-fast', confidence: 0.9, ocr })).toBe(
      'Text recognised by OCR (Tesseract, fast model), 90% confidence',
    );
  });

  it('credits a vision model with its transcription and keeps the confidence OCR had', () => {
    const source: PageTextSource = {
      method: 'ocr',
      engine: 'qwen2.5-vl',
      confidence: 0.55,
      ocr: ocrOf({ confidence: 0.55, transcribedBy: 'qwen2.5-vl' }),
    };
    expect(describePageText(source)).toBe(
      'Text transcribed from the scan by qwen2.5-vl (OCR alone: 55% confidence)',
    );
  });

  it('says when a page has no text, and why', () => {
    expect(describePageText({ method: 'none', engine: 'pdfjs' })).toBe('This page has no text.');
    expect(describePageText({ method: 'none', engine: 'pdfium', repeatOf: 3 })).toBe(
      'The file lists page 3 again here: its text is searched on page 3.',
    );
    expect(
      describePageText({
        method: 'none',
        ocr: ocrOf({ words: 0, confidence: null, problem: 'out of memory' }),
      }),
    ).toBe('No text: out of memory');
    expect(describePageText({ method: 'none', ocr: ocrOf({ words: 0, confidence: 0.1 }) })).toBe(
      'No text could be recognised on this page.',
    );
  });

  it('says nothing for an ordinary text layer', () => {
    expect(describePageText({ method: 'layer', engine: 'pdfjs' })).toBeNull();
    expect(describePageText(undefined)).toBeNull();
  });
});

describe("a document's scanned pages in the library", () => {
  const summary = (change: Partial<DocumentOcr>): DocumentOcr => ({
    pagesNeedingOcr: 4,
    pagesRead: 4,
    pagesUnreadable: 0,
    pagesWaiting: 0,
    confidence: 0.874,
    engine: 'tesseract',
    ...change,
  });

  it('counts pages read, unreadable and waiting', () => {
    expect(describeDocumentOcr(summary({}))).toBe('4 pages recognised by OCR, 87% confidence');
    expect(describeDocumentOcr(summary({ pagesRead: 2, pagesUnreadable: 1, pagesWaiting: 1 }))).toBe(
      '2 pages recognised by OCR, 87% confidence · 1 page unreadable · 1 scanned page not read yet',
    );
    expect(describeDocumentOcr(summary({ pagesRead: 0, pagesWaiting: 4, confidence: null }))).toBe(
      '4 scanned pages not read yet',
    );
  });

  it('shows nothing for a document without scanned pages', () => {
    expect(describeDocumentOcr(null)).toBeNull();
    expect(describeDocumentOcr(summary({ pagesNeedingOcr: 0, pagesRead: 0 }))).toBeNull();
  });
});
