import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ParsedDocument } from '../../src/core/documents/types';
import { ocrStateOfReading } from '../../src/core/index/content/recognizedText';
import { Index } from '../../src/core/index/openIndex';
import { tempDir } from '../helpers/shared';
import { documentRow, parsedFromPages, sha256 } from './helpers';

const key = { engine: 'tesseract', languages: ['eng'] };

/** Five pages: sound text, a scan read with today's settings, one read with others, two not read. */
function mixedReading(): ParsedDocument {
  const parsed = parsedFromPages(['Text layer.', 'Read by OCR.', 'Read in German.', '', 'Invisible layer.']);
  const ocr = (languages: string[], confidence: number | null, reason: 'missing' | 'invisible') => ({
    reason,
    engine: 'tesseract',
    languages,
    confidence,
    words: 3,
    problem: null,
  });
  const [layer, read, other, blank, invisible] = parsed.pages;
  layer!.textSource = { method: 'layer', engine: 'pdfium' };
  Object.assign(read!, {
    needsOcr: true,
    textSource: { method: 'ocr', engine: 'tesseract', ocr: ocr(['eng'], 0.9, 'missing') },
  });
  Object.assign(other!, {
    needsOcr: true,
    textSource: { method: 'ocr', engine: 'tesseract', ocr: ocr(['deu'], 0.8, 'missing') },
  });
  Object.assign(blank!, { needsOcr: true, textSource: { method: 'none', engine: 'pdfium' } });
  Object.assign(invisible!, { needsOcr: true, textSource: { method: 'layer', engine: 'pdfium' } });
  return parsed;
}

describe('the OCR state of content just read', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let index: Index;

  beforeEach(async () => {
    dir = await tempDir('quire-ocr-state-');
    index = await Index.open({ uri: join(dir.path, 'index') });
  });

  afterEach(async () => {
    await index.dispose();
    await dir.cleanup();
  });

  it('is what the index answers once the reading is stored', async () => {
    const hash = sha256('mixed');
    const parsed = mixedReading();
    const known = ocrStateOfReading(hash, parsed, key);
    expect(known.pagesAwaitingOcr).toEqual([3, 4, 5]);
    await index.content.put(hash, parsed);
    await index.documents.upsert(documentRow('mixed', hash));
    expect(known.pagesAwaitingOcr).toEqual(await index.recognized.pagesAwaitingOcr(hash, key));
    expect(known.summary).toEqual(await index.recognized.ocrSummary(hash, key));
    expect(known.summary).toMatchObject({ pagesNeedingOcr: 4, pagesRead: 1, pagesWaiting: 3 });
  });

  it('is nothing to wait for when no page needs OCR', () => {
    const state = ocrStateOfReading(sha256('clean'), parsedFromPages(['One page.', 'Two pages.']), key);
    expect(state).toEqual({ pagesAwaitingOcr: [], summary: null });
  });
});
