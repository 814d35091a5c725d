import type { DocumentOcr } from '../../../shared/domain/library';
import type { PageTextSource } from '../../../shared/domain/search';
import { plural } from './format';

const ENGINE_NAMES: Record<string, string> = {
  tesseract: 'Tesseract',
  'tesseract-fast': 'Tesseract, fast model',
  system: 'macOS Vision',
  pdfjs: 'the text layer',
};

/** "Text recognised by OCR (Tesseract), 91% confidence" for the page viewer; null for ordinary pages. */
export function describePageText(source: PageTextSource | null | undefined): string | null {
  if (!source) return null;
  if (source.repeatOf !== undefined)
    return `The file lists page ${source.repeatOf} again here: its text is searched on page ${source.repeatOf}.`;
  const ocr = source.ocr;
  if (source.method === 'ocr' && ocr?.transcribedBy) {
    // The confidence is OCR's, not the model's: say whose it is.
    const confidence =
      ocr.confidence === null ? '' : ` (OCR alone: ${Math.round(ocr.confidence * 100)}% confidence)`;
    return `Text transcribed from the scan by ${ocr.transcribedBy}${confidence}`;
  }
  if (source.method === 'ocr') {
    const engine = ENGINE_NAMES[source.engine ?? ''] ?? source.engine ?? 'OCR';
    const confidence =
      source.confidence === undefined ? '' : `, ${Math.round(source.confidence * 100)}% confidence`;
    const added = ocr?.reason === 'partial' ? ' where the page has no text layer' : '';
    const turn = ocr?.orientationGuessed ? '; which way up the page is was guessed' : '';
    return `Text recognised by OCR (${engine})${added}${confidence}${turn}`;
  }
  if (ocr?.problem) return `No text: ${ocr.problem}`;
  if (ocr && ocr.words === 0 && ocr.reason !== 'partial') return 'No text could be recognised on this page.';
  if (source.method === 'none') return 'This page has no text.';
  return null;
}

/** A line for the library list: how a document's scanned pages were read; null when none needed OCR. */
export function describeDocumentOcr(ocr: DocumentOcr | null | undefined): string | null {
  if (!ocr || ocr.pagesNeedingOcr === 0) return null;
  const parts: string[] = [];
  if (ocr.pagesRead > 0) {
    const confidence = ocr.confidence === null ? '' : `, ${Math.round(ocr.confidence * 100)}% confidence`;
    parts.push(`${plural(ocr.pagesRead, 'page')} recognised by OCR${confidence}`);
  }
  if (ocr.pagesUnreadable > 0) parts.push(`${plural(ocr.pagesUnreadable, 'page')} unreadable`);
  if (ocr.pagesWaiting > 0) parts.push(`${plural(ocr.pagesWaiting, 'scanned page')} not read yet`);
  return parts.length > 0 ? parts.join(' · ') : null;
}
