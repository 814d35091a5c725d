import type { PageWords } from '../../shared/domain/pages';
import { QuireError } from '../../shared/errors';
import type { CoreServices } from '../coreServices';
import type { OcrKey, OcrStore } from '../documents/ocr/ocrStore';
import { laysOutPages } from '../documents/readers/formatReaders';
import type { StoredTextSource } from '../index/records';
import { laidOutWords, recognizedWords, textLayerWords } from './placeWords';

type Deps = Pick<CoreServices, 'library' | 'ingestion' | 'index' | 'ocrSettings' | 'pdfReaders'> & {
  ocrResults: OcrStore;
};

/**
 * The words of one indexed page and where they sit: from OCR when OCR read the page, from Quire's
 * layout for office files, and from the text layer of a born-digital PDF.
 */
export async function readPageWords(
  core: Deps,
  documentId: string,
  page: number,
  signal?: AbortSignal,
): Promise<PageWords> {
  const doc = core.library.document(documentId);
  if (!doc) throw new QuireError('not_found', 'That document is not in the library.');
  if (doc.state !== 'indexed') {
    throw new QuireError('not_found', `${doc.relativePath} is not indexed yet: its words are not known.`);
  }
  const stored = await core.index.content.page(documentId, page);
  const base = { documentId, page, pageWidth: stored.width, pageHeight: stored.height };
  const indexed = core.index.documents.get(documentId);
  if (stored.textSource?.method === 'ocr') {
    const record = await recognizedRecord(core, indexed?.contentHash ?? null, page, stored.textSource);
    if (!record) {
      throw new QuireError('not_found', `The words OCR read on page ${page} are no longer stored.`);
    }
    return { ...base, source: 'ocr', words: recognizedWords(record, stored.width, stored.height) };
  }
  if (laysOutPages(doc.kind)) {
    const laidOut = await core.ingestion.pageLayout(documentId, page, signal);
    return {
      ...base,
      pageWidth: laidOut.width,
      pageHeight: laidOut.height,
      source: 'layout',
      words: laidOutWords(laidOut.lines),
    };
  }
  if (doc.kind !== 'pdf') throw new QuireError('not_found', `Page ${page} has no words to show.`);
  const path = await core.library.readablePath(doc.path);
  // The same engine that read the page for the index, so a cited sentence is found among these words.
  const read = await core.pdfReaders
    .use(path, async (reader) => {
      signal?.throwIfAborted();
      if (page > reader.pageCount) {
        throw new QuireError(
          'not_found',
          `Page ${page} does not exist: the PDF has ${reader.pageCount} pages.`,
        );
      }
      return reader.readRuns(page, { measure: false });
    })
    .catch((error: unknown) => {
      if (error instanceof QuireError && error.code === 'needs_password') {
        throw new QuireError('unsupported', 'The text of an encrypted PDF is not shown over its pages.');
      }
      throw error;
    });
  if (read.unreadable !== null) {
    throw new QuireError('unsupported', `The text of page ${page} cannot be read: ${read.unreadable}`);
  }
  return {
    ...base,
    pageWidth: read.width,
    pageHeight: read.height,
    source: 'layer',
    words: textLayerWords(read.runs),
  };
}

/** The OCR record of a page: read with today's settings, or with the ones the page says it was read with. */
async function recognizedRecord(
  core: Deps,
  contentHash: string | null,
  page: number,
  source: StoredTextSource,
) {
  if (!contentHash) return null;
  const keys: OcrKey[] = [core.ocrSettings.key];
  const engine = source.ocr?.engine ?? source.engine;
  const languages = source.ocr?.languages ?? source.languages;
  if (engine && languages) keys.push({ engine, languages });
  for (const key of keys) {
    const record = await core.ocrResults.get(contentHash, page, key);
    if (record) return record;
  }
  return null;
}
