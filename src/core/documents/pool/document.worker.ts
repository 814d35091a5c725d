import { parentPort } from 'node:worker_threads';
import { QuireError, toErrorInfo } from '../../../shared/errors';
import { lowerThisThread } from '../../common/processPriority';
import type { DocumentKind } from '../../../shared/domain/library';
import { selectOcrEngine } from '../ocr/ocrEngines';
import { OcrStore } from '../ocr/ocrStore';
import { ocrKeyOf, recognizePages } from '../ocr/recognizePdfPages';
import type { OcrEngine } from '../ocr/types';
import { parseDocument } from '../parseDocument';
import { pagesFailingLayerCheck } from '../pdf/layerCheck';
import { assemblePdf, readPdfPages } from '../pdf/parsePdf';
import { asReaderError } from '../readerErrors';
import { readerFor } from '../readers/formatReaders';
import { PageImageStore } from '../render/pageImageStore';
import type { ParsedDocument } from '../types';
import type { DocumentJob, JobRequest, JobResponse, LongPdf, OcrSource } from './protocol';

/* Runs one document job at a time for the pool; the pool terminates the thread to cancel or time out. */

// An OCR engine holds a few hundred MB; it is let go when this thread has had no OCR work for a while.
const OCR_IDLE_MS = 60_000;
let ocrEngine: { choice: string; engine: OcrEngine } | null = null;
let ocrIdle: NodeJS.Timeout | undefined;

async function engineFor(source: OcrSource): Promise<OcrEngine> {
  clearTimeout(ocrIdle);
  const fastModelDir = source.fastModelDir ?? null;
  // The model folder is part of the choice: a model downloaded meanwhile starts a new engine.
  const choice = `${source.engine}|${fastModelDir ?? ''}`;
  if (ocrEngine?.choice !== choice) {
    await ocrEngine?.engine.dispose();
    ocrEngine = { choice, engine: selectOcrEngine(source.engine, undefined, fastModelDir) };
  }
  return ocrEngine.engine;
}

function releaseEngineLater() {
  clearTimeout(ocrIdle);
  ocrIdle = setTimeout(() => {
    const held = ocrEngine;
    ocrEngine = null;
    void held?.engine.dispose();
  }, OCR_IDLE_MS);
  ocrIdle.unref();
}

/** The OCR results kept for this content, to merge into the pages that need them. */
function ocrRecords(source: OcrSource | undefined) {
  return source ? new OcrStore(source.storeRoot).all(source.contentHash, ocrKeyOf(source)) : undefined;
}

async function run(job: DocumentJob) {
  const password = 'password' in job && job.password !== undefined ? { password: job.password } : {};
  const maxPages = job.type === 'parse' && job.maxPages !== undefined ? { maxPages: job.maxPages } : {};
  if (job.type === 'parse' && job.kind === 'pdf' && job.rangesFrom !== undefined) {
    return readShortPdf(job.path, job.rangesFrom, {
      ...password,
      ...maxPages,
      ...(job.ocr ? { ocr: job.ocr } : {}),
      ...(job.textOnly ? { textOnly: true } : {}),
    });
  }
  if (job.type === 'parse') {
    const ocr = await ocrRecords(job.ocr);
    return parseDocument(job.path, {
      kind: job.kind,
      ...password,
      ...maxPages,
      ...(ocr ? { ocr } : {}),
      ...(job.textOnly ? { textOnly: true } : {}),
    });
  }
  if (job.type === 'readPdfRange') {
    const ocr = await ocrRecords(job.ocr);
    return readPdfPages(job.path, {
      ...password,
      pages: job.pages,
      withTitle: job.withTitle,
      skipPagesPastEnd: true,
      // The pool lays out every page of the file before the range's with it.
      skipRepeats: true,
      ...(ocr ? { ocr } : {}),
      ...(job.textOnly ? { textOnly: true } : {}),
    }).catch((error: unknown) => {
      throw asReaderError(error, job.path);
    });
  }
  if (job.type === 'layerCheck') return pagesFailingLayerCheck(job.path, job.password, job.pages);
  if (job.type === 'ocr') {
    const open = readerFor(job.kind).pagesForOcr;
    if (!open) throw new QuireError('unsupported', `${job.kind} documents have no pages to read with OCR.`);
    try {
      return await recognizePages(
        job.path,
        () => open(job.path, password),
        {
          contentHash: job.ocr.contentHash,
          pages: job.pages,
          engine: job.ocr.engine,
          languages: job.ocr.languages,
          fastModelDir: job.ocr.fastModelDir ?? null,
          ...password,
        },
        new OcrStore(job.ocr.storeRoot),
        () => engineFor(job.ocr),
      );
    } finally {
      releaseEngineLater();
    }
  }
  if (job.type === 'countPages') return countPages(job.path, job.kind, job.password);
  if (job.type === 'pageText') return laidOutPage(job.path, job.kind, job.page);
  const { path, storeRoot, kind, ...options } = job;
  const reader = readerFor(kind);
  if (!reader.drawPages) throw new QuireError('unsupported', `Pages of ${kind} documents have no images.`);
  return reader.drawPages(path, options, new PageImageStore(storeRoot));
}

/**
 * A PDF of at most `most` pages to read (up to `maxPages`), read whole; a longer one is left to the
 * pool to read in ranges.
 */
async function readShortPdf(
  path: string,
  most: number,
  { ocr: source, ...options }: { password?: string; ocr?: OcrSource; textOnly?: boolean; maxPages?: number },
): Promise<ParsedDocument | LongPdf> {
  try {
    const ocr = await ocrRecords(source);
    const read = await readPdfPages(path, {
      ...options,
      ...(ocr ? { ocr } : {}),
      withTitle: true,
      onlyUpTo: most,
      skipRepeats: true,
    });
    const toRead = Math.min(read.pageCount, options.maxPages ?? read.pageCount);
    if (toRead <= most) return assemblePdf([read]);
    return { longPdfPages: read.pageCount, ...(read.repeats ? { repeats: read.repeats } : {}) };
  } catch (error) {
    throw asReaderError(error, path);
  }
}

/** Pages of a file: counted by the format where the file has pages, else by laying it out. */
async function countPages(path: string, kind: DocumentKind, password?: string): Promise<number> {
  const reader = readerFor(kind);
  if (reader.countPages) return reader.countPages(path, password === undefined ? {} : { password });
  if (reader.layOut) return (await reader.layOut(path)).length;
  throw new QuireError('unsupported', `Pages of ${kind} documents cannot be counted before reading.`);
}

/** One page as Quire laid it out, for the text view. */
async function laidOutPage(path: string, kind: DocumentKind, page: number) {
  const reader = readerFor(kind);
  if (!reader.layOut)
    throw new QuireError('invalid_input', `Pages of ${kind} documents are not laid out by Quire.`);
  const pages = await reader.layOut(path);
  const found = pages[page - 1];
  if (!found) {
    throw new QuireError('not_found', `Page ${page} does not exist: the document has ${pages.length} pages.`);
  }
  return found;
}

const port = parentPort;
if (!port) throw new Error('document.worker must run in a worker thread');
// Reading documents is background work: the window is drawn first (see processPriority.ts).
lowerThisThread();
port.on('message', (request: JobRequest) => {
  run(request.job).then(
    (value) => port.postMessage({ id: request.id, ok: true, value } satisfies JobResponse),
    (error: unknown) =>
      port.postMessage({ id: request.id, ok: false, error: toErrorInfo(error) } satisfies JobResponse),
  );
});
