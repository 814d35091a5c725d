import { parentPort } from 'node:worker_threads';
import { QuireError, toErrorInfo } from '../../../shared/errors';
import { selectOcrEngine } from '../ocr/ocrEngines';
import { OcrStore } from '../ocr/ocrStore';
import { ocrKeyOf, recognizePages } from '../ocr/recognizePdfPages';
import type { OcrEngine } from '../ocr/types';
import { parseDocument } from '../parseDocument';
import { readerFor } from '../readers/formatReaders';
import { PageImageStore } from '../render/pageImageStore';
import { countPdfPages } from '../pdf/countPdfPages';
import { renderPdfPages } from '../render/renderPdfPages';
import type { DocumentJob, JobRequest, JobResponse, OcrSource } from './protocol';

/* Runs one document job at a time for the pool; the pool terminates the thread to cancel or time out. */

// An OCR engine holds a few hundred MB; it is let go when this thread has had no OCR work for a while.
const OCR_IDLE_MS = 60_000;
let ocrEngine: { choice: string; engine: OcrEngine } | null = null;
let ocrIdle: NodeJS.Timeout | undefined;

async function engineFor(choice: OcrSource['engine']): Promise<OcrEngine> {
  clearTimeout(ocrIdle);
  if (ocrEngine?.choice !== choice) {
    await ocrEngine?.engine.dispose();
    ocrEngine = { choice, engine: selectOcrEngine(choice) };
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

async function run(job: DocumentJob) {
  if (job.type === 'parse') {
    const ocr = job.ocr
      ? await new OcrStore(job.ocr.storeRoot).all(job.ocr.contentHash, ocrKeyOf(job.ocr))
      : undefined;
    return parseDocument(job.path, {
      kind: job.kind,
      ...(job.password === undefined ? {} : { password: job.password }),
      ...(ocr ? { ocr } : {}),
    });
  }
  if (job.type === 'ocr') {
    const open = readerFor(job.kind).pagesForOcr;
    if (!open) throw new QuireError('unsupported', `${job.kind} documents have no pages to read with OCR.`);
    try {
      return await recognizePages(
        job.path,
        () => open(job.path, job.password === undefined ? {} : { password: job.password }),
        {
          contentHash: job.ocr.contentHash,
          pages: job.pages,
          engine: job.ocr.engine,
          languages: job.ocr.languages,
          ...(job.password === undefined ? {} : { password: job.password }),
        },
        new OcrStore(job.ocr.storeRoot),
        () => engineFor(job.ocr.engine),
      );
    } finally {
      releaseEngineLater();
    }
  }
  if (job.type === 'countPages') return countPdfPages(job.path, job.password);
  const { path, storeRoot, ...options } = job;
  return renderPdfPages(path, options, new PageImageStore(storeRoot));
}

const port = parentPort;
if (!port) throw new Error('document.worker must run in a worker thread');
port.on('message', (request: JobRequest) => {
  run(request.job).then(
    (value) => port.postMessage({ id: request.id, ok: true, value } satisfies JobResponse),
    (error: unknown) =>
      port.postMessage({ id: request.id, ok: false, error: toErrorInfo(error) } satisfies JobResponse),
  );
});
