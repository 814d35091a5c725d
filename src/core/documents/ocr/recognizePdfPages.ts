import { QuireError, toErrorInfo } from '../../../shared/errors';
import { PdfPageDrawer } from '../render/pdfPageDrawer';
import { ocrEngineId, type OcrEngineChoice } from './ocrEngines';
import type { OcrKey, OcrPageRecord, OcrStore } from './ocrStore';
import { failedRecord, recognizePage } from './recognizePage';
import { OCR_DPI } from './tesseractEngine';
import type { OcrEngine } from './types';
import type { RasterPage } from '../render/raster';

/**
 * Pages are drawn for OCR at about 300 dpi; a huge page (a poster, a 2400 dpi scan's sheet) is
 * capped at this long edge, which keeps a page under ~25 megapixels and a few hundred MB of work.
 */
export const MAX_OCR_LONG_EDGE = 6000;

/** The long edge, in pixels, a page of this size (points) is drawn at for OCR. */
export function ocrLongEdge(widthPt: number, heightPt: number): number {
  const edge = Math.max(widthPt, heightPt);
  if (!(edge > 0)) return MAX_OCR_LONG_EDGE;
  return Math.max(16, Math.min(MAX_OCR_LONG_EDGE, Math.round((edge / 72) * OCR_DPI)));
}

export interface OcrJobOptions {
  contentHash: string;
  /** 1-based pages to read; pages already in the store with these settings are skipped. */
  pages: number[];
  password?: string;
  engine: OcrEngineChoice;
  languages: string[];
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

export function ocrKeyOf(options: Pick<OcrJobOptions, 'engine' | 'languages'>): OcrKey {
  return { engine: ocrEngineId(options.engine), languages: options.languages };
}

/** Where OCR gets its pages from: a PDF, or a picture's frames. */
export interface OcrPageSource {
  /** The page's size in points as shown. Throws when the page does not exist. */
  pageSize(page: number): Promise<{ width: number; height: number }>;
  /** The page drawn for OCR, at its size in points `size`. */
  draw(page: number, size: { width: number; height: number }): Promise<RasterPage>;
  close(): Promise<void>;
}

/** Reads pages of a PDF with OCR into the store; see recognizePages. */
export function recognizePdfPages(
  path: string,
  options: OcrJobOptions,
  store: OcrStore,
  engine: () => Promise<OcrEngine>,
): Promise<OcrPageOutcome[]> {
  const openPdf = async (): Promise<OcrPageSource> => {
    const drawer = await PdfPageDrawer.open(path, options.password);
    return {
      pageSize: async (page) => {
        if (!(await drawer.hasPage(page))) {
          throw new QuireError('invalid_input', `Page ${page} does not exist in ${path}.`);
        }
        return drawer.pageSize(page);
      },
      draw: (page, size) => drawer.drawFull(page, ocrLongEdge(size.width, size.height)),
      close: () => drawer.close(),
    };
  };
  return recognizePages(openPdf, options, store, engine);
}

/**
 * Reads pages with OCR into the store, one page at a time, each saved as soon as it is read. A page
 * the engine fails on is saved as failed (its text is lost, the rest is not); a cancel or a page that
 * cannot even be drawn stops the job, and the pages done so far stay saved. The source is opened only
 * when a page is not in the store yet.
 */
export async function recognizePages(
  openSource: () => Promise<OcrPageSource>,
  options: OcrJobOptions,
  store: OcrStore,
  engine: () => Promise<OcrEngine>,
): Promise<OcrPageOutcome[]> {
  const key = ocrKeyOf(options);
  const outcomes: OcrPageOutcome[] = [];
  let source: OcrPageSource | null = null;
  try {
    for (const page of options.pages) {
      options.signal?.throwIfAborted();
      const stored = await store.get(options.contentHash, page, key);
      if (stored) {
        outcomes.push(outcomeOf(page, stored, true));
        continue;
      }
      source ??= await openSource();
      const size = await source.pageSize(page);
      const raster = await source.draw(page, size);
      let record: OcrPageRecord;
      try {
        record = await recognizePage(await engine(), raster, {
          languages: key.languages,
          dpi: (raster.width / Math.max(1, size.width)) * 72,
          ...(options.signal ? { signal: options.signal } : {}),
        });
      } catch (error) {
        if (options.signal?.aborted || toErrorInfo(error).code === 'cancelled') throw error;
        record = failedRecord(key.engine, key.languages, toErrorInfo(error).message);
      }
      await store.put(options.contentHash, page, record);
      outcomes.push(outcomeOf(page, record, false));
    }
    return outcomes;
  } finally {
    await source?.close();
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
