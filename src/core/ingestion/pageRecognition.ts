import { basename } from 'node:path';
import type { DocumentKind, DocumentOcr } from '../../shared/domain/library';
import { isAbortError, toErrorInfo } from '../../shared/errors';
import type { DocumentPool } from '../documents/pool/documentPool';
import type { OcrSource } from '../documents/pool/protocol';
import type { OcrStore } from '../documents/ocr/ocrStore';
import { failedRecord } from '../documents/ocr/recognizePage';
import { ocrKeyOf } from '../documents/ocr/recognizePdfPages';
import { readsScans } from '../documents/readers/formatReaders';
import type { RecognizedText } from '../index/content/recognizedText';
import type { DocumentCatalog } from '../index/documents/documentCatalog';
import type { IndexedDocument } from '../index/records';
import { detectDocumentLanguage } from '../language/detectLanguage';
import type { OcrSettingsStore } from './ocrSettingsStore';
import type { ProgressMeter } from './progressMeter';
import type { Scheduler } from './scheduler';
import type { PageTranscriber } from './pageTranscriber';

/** Where OCR results are kept and the settings in force. */
export interface OcrSetup {
  store: OcrStore;
  settings: Pick<OcrSettingsStore, 'current' | 'key'> & Partial<Pick<OcrSettingsStore, 'fastModelDir'>>;
  /** Reads poorly recognised pages again with a vision model, when one is available. */
  transcriber?: PageTranscriber;
}

/** The OCR results this content's readers take, with the settings in force. */
export function ocrSourceOf(setup: OcrSetup, contentHash: string): OcrSource {
  const { engine, languages } = setup.settings.current;
  const fastModelDir = setup.settings.fastModelDir ?? null;
  return { storeRoot: setup.store.root, contentHash, engine, languages: [...languages], fastModelDir };
}

export interface PageRecognitionDeps extends OcrSetup {
  documents: Pick<DocumentCatalog, 'indexedWithContent' | 'allIndexedWithContent' | 'list' | 'setLanguage'>;
  recognized: RecognizedText;
  pool: Pick<DocumentPool, 'ocr' | 'parse' | 'checkLayers'>;
  password: (documentId: string) => Promise<string | undefined>;
  /** The real path to read a library file from; throws when the path policy no longer allows it. */
  readablePath: (path: string) => Promise<string>;
  scheduler: Scheduler;
  /** Counts pages still to recognise. */
  meter: Pick<ProgressMeter, 'recognitionAdded' | 'pagesRecognized' | 'recognitionFinished'>;
  /** The file being read now, and a nudge to report progress. */
  working: (path: string) => void;
  changed: () => void;
  /** A document's OCR summary changed (for the library list), with its language as its text now reads. */
  onSummary: (documentId: string, summary: DocumentOcr | null, language: string | null) => void;
  /** Chunks were rewritten: the full-text index wants tidying after the batch. */
  onTextChanged: () => void;
}

/**
 * OCR of scanned pages, run after every queued file's text and before embeddings: the pages are
 * read in the worker pool, each result saved as it comes (so a run killed midway redoes only the
 * pages it had not finished), then the file's text is read again with them and replaces the
 * stored text in one write. A page OCR fails on costs that page's text, never the file.
 */
export class PageRecognition {
  constructor(private readonly deps: PageRecognitionDeps) {}

  /** Queues OCR of this content's waiting pages, once. */
  queue(contentHash: string, pages: number): void {
    const { scheduler, recognized, meter, settings, changed } = this.deps;
    const key = recognitionKey(contentHash);
    if (!settings.current.enabled || pages <= 0) return;
    if (scheduler.queued(key) || scheduler.isRunning(key)) return;
    recognized.expectText(contentHash);
    meter.recognitionAdded(pages);
    let left = pages;
    scheduler.add(
      {
        key,
        run: async (signal) => {
          try {
            await this.recognize(contentHash, signal, (done) => {
              left = Math.max(0, left - done);
              meter.pagesRecognized(done);
              changed();
            });
          } finally {
            if (!scheduler.queued(key)) recognized.textSettled(contentHash);
            meter.recognitionFinished(left);
            changed();
          }
        },
        dropped: () => {
          recognized.textSettled(contentHash);
          meter.recognitionFinished(left);
        },
      },
      'background',
    );
  }

  /**
   * After a PDF's text is searchable: PDFium measures the pages its text alone judged sound (a layer
   * drawn invisibly over a scan, a picture with a caption), any it flags join the pages waiting, and
   * then OCR of every waiting page is queued. Both run after every queued file's text.
   */
  queueAfterText(contentHash: string, pagesToCheck: readonly number[], pagesAwaiting: number): void {
    const { scheduler, recognized, settings } = this.deps;
    if (pagesToCheck.length === 0) return this.queue(contentHash, pagesAwaiting);
    const key = `layers:${contentHash}`;
    if (scheduler.queued(key) || scheduler.isRunning(key)) return;
    scheduler.add(
      {
        key,
        run: async (signal) => {
          let rewritten = true;
          try {
            rewritten = await this.checkLayers(contentHash, pagesToCheck, signal);
          } catch (error) {
            if (isAbortError(error) || signal.aborted) return;
            console.error('quire: could not check which pages need OCR', error);
          }
          if (signal.aborted) return;
          // Pages the check left alone keep the count the reading gave; a rewrite may have added some.
          const awaiting = rewritten
            ? (await recognized.pagesAwaitingOcr(contentHash, settings.key)).length
            : pagesAwaiting;
          this.queue(contentHash, awaiting);
        },
        // The pages already waiting are found again at the next start (queueMissing).
        dropped: () => undefined,
      },
      'background',
    );
  }

  /** Content an earlier run did not finish reading (it stopped or crashed), or read with other settings. */
  async queueMissing(): Promise<void> {
    const { recognized, settings } = this.deps;
    if (!settings.current.enabled) return;
    try {
      for (const hash of await recognized.contentAwaitingOcr(settings.key)) {
        if (!this.owner(hash)) continue;
        this.queue(hash, (await recognized.pagesAwaitingOcr(hash, settings.key)).length);
      }
    } catch (error) {
      console.error('quire: could not look for pages waiting for OCR', error);
    }
  }

  private async recognize(
    contentHash: string,
    signal: AbortSignal,
    onPages: (count: number) => void,
  ): Promise<void> {
    const { recognized, settings, pool } = this.deps;
    const owner = this.owner(contentHash);
    if (!owner || !settings.current.enabled) return;
    const pages = await recognized.pagesAwaitingOcr(contentHash, settings.key);
    if (pages.length === 0) return;
    this.deps.working(owner.path);
    const password = await this.deps.password(owner.id);
    const source = ocrSourceOf(this.deps, contentHash);
    const job = { ocr: source, signal, ...(password ? { password } : {}) };
    let readable: string;
    try {
      // Through the path policy, as the text was: the file may now be a link leading out of the library.
      readable = await this.deps.readablePath(owner.path);
    } catch (error) {
      console.error(`quire: ${owner.path} can no longer be read for OCR`, error);
      return;
    }
    try {
      await pool.ocr(readable, {
        ...job,
        kind: owner.kind,
        pages,
        onPages: (outcomes) => onPages(outcomes.length),
      });
    } catch (error) {
      if (isAbortError(error) || signal.aborted) return;
      // A batch timed out or its worker died: the pages it finished are saved; the rest go one by one.
      await this.onePageAtATime(readable, pages, { ...job, kind: owner.kind }, onPages);
    }
    if (signal.aborted) return;
    await this.deps.transcriber
      ?.transcribeWeakPages({ id: owner.id, path: readable }, pages, source, signal)
      .catch((error: unknown) => {
        if (!isAbortError(error)) console.error('quire: vision transcription failed', error);
      });
    try {
      const pageCount = owner.pages === null ? {} : { pageCount: owner.pages };
      const parsed = await pool.parse(readable, { kind: owner.kind, ...job, ...pageCount });
      if (signal.aborted || this.owner(contentHash)?.id !== owner.id) return;
      await recognized.replaceText(contentHash, parsed, basename(owner.path));
      this.deps.onTextChanged();
      // Scans said nothing of the language until OCR gave them text.
      const language = detectDocumentLanguage(parsed.pages.map((page) => page.text));
      for (const doc of this.deps.documents.list())
        if (doc.contentHash === contentHash) await this.deps.documents.setLanguage(doc.id, language);
    } catch (error) {
      if (isAbortError(error) || signal.aborted) return;
      console.error(`quire: the text of ${owner.path} could not be updated with OCR`, error);
    }
    await this.publishSummary(contentHash);
  }

  /** Measures `pages`; when any needs OCR after all, the file is read again with them flagged. */
  /** Measures the layers of `pages`; true when some failed and the text was read again. */
  private async checkLayers(
    contentHash: string,
    pages: readonly number[],
    signal: AbortSignal,
  ): Promise<boolean> {
    const { pool, recognized } = this.deps;
    const owner = this.owner(contentHash);
    if (!owner) return false;
    const readable = await this.deps.readablePath(owner.path);
    const password = await this.deps.password(owner.id);
    const job = { signal, ...(password ? { password } : {}) };
    const failing = await pool.checkLayers(readable, { ...job, pages: [...pages] });
    if (failing.length === 0) return false;
    if (signal.aborted) return true;
    const parsed = await pool.parse(readable, {
      ...job,
      kind: owner.kind,
      ocr: ocrSourceOf(this.deps, contentHash),
      ...(owner.pages === null ? {} : { pageCount: owner.pages }),
    });
    if (signal.aborted || this.owner(contentHash)?.id !== owner.id) return true;
    await recognized.replaceText(contentHash, parsed, basename(owner.path));
    this.deps.onTextChanged();
    await this.publishSummary(contentHash);
    return true;
  }

  private async onePageAtATime(
    path: string,
    pages: number[],
    job: { kind: DocumentKind; ocr: OcrSource; signal: AbortSignal; password?: string },
    onPages: (count: number) => void,
  ): Promise<void> {
    const { store, pool } = this.deps;
    // The job's own key (its engine and model), as the worker saves the pages it reads.
    const key = ocrKeyOf(job.ocr);
    for (const page of pages) {
      if (job.signal.aborted) return;
      if (await store.get(job.ocr.contentHash, page, key)) continue;
      try {
        await pool.ocr(path, { ...job, pages: [page] });
      } catch (error) {
        if (isAbortError(error) || job.signal.aborted) return;
        await store
          .put(job.ocr.contentHash, page, failedRecord(key.engine, key.languages, toErrorInfo(error).message))
          .catch((writeError: unknown) =>
            console.error('quire: could not record a failed OCR page', writeError),
          );
      }
      onPages(1);
    }
  }

  /**
   * Tells the library how the scanned pages of every indexed file were read, in one read of the
   * pages table: the documents table does not keep it, and the library's list shows it from the start.
   */
  async publishSummaries(): Promise<void> {
    const { recognized, documents, settings } = this.deps;
    try {
      const summaries = await recognized.ocrSummaries(settings.key);
      for (const doc of documents.list()) {
        const summary = doc.contentHash ? summaries.get(doc.contentHash) : undefined;
        if (summary && doc.state === 'indexed') this.deps.onSummary(doc.id, summary, doc.language ?? null);
      }
    } catch (error) {
      console.error('quire: could not summarise OCR', error);
    }
  }

  /** Tells the library how the pages of every file with this content were read. */
  async publishSummary(contentHash: string): Promise<void> {
    const { recognized, documents, settings } = this.deps;
    try {
      const summary = await recognized.ocrSummary(contentHash, settings.key);
      for (const doc of documents.allIndexedWithContent(contentHash))
        this.deps.onSummary(doc.id, summary, doc.language ?? null);
    } catch (error) {
      console.error('quire: could not summarise OCR', error);
    }
  }

  /** An indexed document with this content that can hold scans, whose path and password OCR reads from. */
  private owner(contentHash: string): IndexedDocument | null {
    const owner = this.deps.documents.indexedWithContent(contentHash);
    return owner && readsScans(owner.kind) ? owner : null;
  }
}

function recognitionKey(contentHash: string): string {
  return `ocr:${contentHash}`;
}
