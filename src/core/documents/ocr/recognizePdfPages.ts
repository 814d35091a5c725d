import { QuireError, toErrorInfo } from '../../../shared/errors';
import { PdfPageDrawer } from '../render/pdfPageDrawer';
import { ocrEngineId, type OcrEngineChoice } from './ocrEngines';
import type { OcrKey, OcrPageRecord, OcrStore } from './ocrStore';
import { drawForOcr } from './ocrPageDrawing';
import { releasePixels } from './pageGeometry';
import { failedRecord, recognizePage } from './recognizePage';
import type { OcrEngine, OcrPageSource } from './types';

export interface OcrJobOptions {
  contentHash: string;
  /** 1-based pages to read; pages already in the store with these settings are skipped. */
  pages: number[];
  password?: string;
  engine: OcrEngineChoice;
  languages: string[];
  /** Tesseract's fast models, when they serve these languages (the engine id tells their pages apart). */
  fastModelDir?: string | null;
  signal?: AbortSignal;
}

/** What became of one page, for progress and counts; the text itself is in the store. */
export interface OcrPageOutcome {
  page: number;
  /** Read in an earlier run (or by another copy of the file), not now. */
  reused: boolean;
  words: number;
  confidence: number | null;
  problem: string | null;
}

export function ocrKeyOf(options: Pick<OcrJobOptions, 'engine' | 'languages' | 'fastModelDir'>): OcrKey {
  return { engine: ocrEngineId(options.engine, options.fastModelDir ?? null), languages: options.languages };
}

/** Reads pages of a PDF with OCR into the store: `recognizePages` with PDFium (or pdfjs) drawing. */
export function recognizePdfPages(
  path: string,
  options: OcrJobOptions,
  store: OcrStore,
  engine: () => Promise<OcrEngine>,
): Promise<OcrPageOutcome[]> {
  return recognizePages(path, () => PdfPageDrawer.open(path, options.password), options, store, engine);
}

/**
 * Reads pages of a document with OCR into the store, one page at a time, each saved as soon as it
 * is read. A page the engine fails on is saved as failed (its text is lost, the rest is not); a
 * cancel or a page that cannot even be drawn stops the job, and the pages done so far stay saved.
 * `open` is called only when a page is not in the store yet.
 */
export async function recognizePages(
  path: string,
  open: () => Promise<OcrPageSource>,
  options: OcrJobOptions,
  store: OcrStore,
  engine: () => Promise<OcrEngine>,
): Promise<OcrPageOutcome[]> {
  const key = ocrKeyOf(options);
  const outcomes: OcrPageOutcome[] = [];
  let drawer: OcrPageSource | null = null;
  try {
    for (const page of options.pages) {
      options.signal?.throwIfAborted();
      const stored = await store.get(options.contentHash, page, key);
      if (stored) {
        outcomes.push(outcomeOf(page, stored, true));
        continue;
      }
      drawer ??= await open();
      if (!(await drawer.hasPage(page))) {
        throw new QuireError('invalid_input', `Page ${page} does not exist in ${path}.`);
      }
      const drawn = await drawForOcr(drawer, page);
      let record: OcrPageRecord;
      try {
        record = await recognizePage(await engine(), drawn.raster, {
          languages: key.languages,
          dpi: drawn.dpi,
          drawFiner: drawn.drawFiner,
          ...(options.signal ? { signal: options.signal } : {}),
        });
      } catch (error) {
        if (options.signal?.aborted || toErrorInfo(error).code === 'cancelled') throw error;
        record = failedRecord(key.engine, key.languages, toErrorInfo(error).message);
      } finally {
        releasePixels(drawn.raster.pixels);
      }
      await store.put(options.contentHash, page, record);
      outcomes.push(outcomeOf(page, record, false));
    }
    return outcomes;
  } finally {
    await drawer?.close();
  }
}

function outcomeOf(page: number, record: OcrPageRecord, reused: boolean): OcrPageOutcome {
  return {
    page,
    reused,
    words: record.lines.reduce((sum, line) => sum + line.length, 0),
    confidence: record.confidence,
    problem: record.problem,
  };
}
