import { basename } from 'node:path';
import type { DocumentKind, DocumentOcr, DocumentState } from '../../shared/domain/library';
import { isAbortError, toErrorInfo } from '../../shared/errors';
import type { OcrSource } from '../documents/pool/protocol';
import { ocrKeyOf } from '../documents/ocr/recognizePdfPages';
import { readsScans } from '../documents/readers/formatReaders';
import type { ParsedDocument, ParsedPage } from '../documents/types';
import { ocrStateOfReading, type RecognizedText } from '../index/content/recognizedText';
import type { ContentStore, PageImageSlots } from '../index/content/indexContent';
import type { DocumentCatalog } from '../index/documents/documentCatalog';
import type { IndexedDocument } from '../index/records';
import { detectDocumentLanguage } from '../language/detectLanguage';
import { hashFile } from './fileHash';
import { readingNote, readsFurtherUnder, wasCutShort } from './readingNote';

/** A file as ingestion sees it: where it is and what the library knows of it. */
export interface FileToIngest {
  id: string;
  path: string;
  rootId: string;
  kind: DocumentKind;
  pages: number | null;
  bytes: number;
  modifiedMs: number;
}

/** What the pipeline needs of the document readers. */
export interface DocumentReader {
  parse(
    path: string,
    options: {
      kind: DocumentKind;
      signal?: AbortSignal;
      password?: string;
      ocr?: OcrSource;
      textOnly?: boolean;
      pageCount?: number;
      urgent?: boolean;
    },
  ): Promise<ParsedDocument>;
}

export interface FileIngestionDeps {
  documents: Pick<DocumentCatalog, 'get' | 'indexedWithContent' | 'upsert'>;
  content: Pick<ContentStore, 'has' | 'put'> & Pick<PageImageSlots, 'pagesWithoutImages'>;
  recognized: Pick<RecognizedText, 'pagesAwaitingOcr' | 'ocrSummary'>;
  reader: DocumentReader;
  password: (documentId: string) => Promise<string | undefined>;
  /**
   * Where OCR results of this content are kept and the settings they must match: the first reading
   * of a file already takes every page read before (a copy, a rename, a run that was stopped).
   */
  ocr: (contentHash: string) => OcrSource | null;
  /** The real path to read a library file from; throws when the path policy no longer allows it. */
  readablePath: (path: string) => Promise<string>;
  /** The most pages of one document read today: content cut shorter before is read again. */
  pageLimit: number;
}

export interface IngestedFile {
  contentHash: string;
  /** Pages now searchable. */
  pages: number;
  /** Pages of this content still without an image. */
  pagesWithoutImages: number;
  /** Scanned pages of this content still to be read by OCR. */
  pagesAwaitingOcr: number;
  /** Pages judged by their text alone, whose layer PDFium is still to measure (see layerCheck.ts). */
  pagesToCheck: number[];
  /** How its scanned pages were read so far; null when none needed OCR. */
  ocr: DocumentOcr | null;
}

/** How a failed file ends: a state the user sees, a retry, or nothing (it was cancelled or went away). */
export type FailureOutcome =
  | { kind: 'cancelled' }
  | {
      kind: 'final';
      state: Extract<DocumentState, 'needsPassword' | 'failed' | 'unsupported'>;
      message: string;
    }
  | { kind: 'retry'; message: string };

/**
 * One file from disk into the index: hash it, reuse content already indexed under that hash (a
 * rename, a copy) or read it in the worker pool and store its chunks and pages, then commit the
 * documents row, which makes the text searchable. Page images are drawn later, apart.
 */
export class FileIngestion {
  constructor(private readonly deps: FileIngestionDeps) {}

  /** `urgent`: the user waits for this file, so the pool reads it ahead of background work. */
  async ingest(file: FileToIngest, signal: AbortSignal, urgent = false): Promise<IngestedFile> {
    const { documents, content, reader, recognized } = this.deps;
    // Read through the path policy: the file may have become a link that leads outside the library.
    const readable = await this.deps.readablePath(file.path);
    const contentHash = await hashFile(readable, signal);
    signal.throwIfAborted();
    const record: IndexedDocument = {
      id: file.id,
      path: file.path,
      rootId: file.rootId,
      contentHash,
      kind: file.kind,
      title: null,
      pages: file.pages,
      bytes: file.bytes,
      modifiedMs: file.modifiedMs,
      state: 'indexed',
      error: null,
      indexedAt: Date.now(),
    };
    let pagesToCheck: number[] = [];
    let read: ParsedDocument | null = null;
    const sameContent = documents.indexedWithContent(contentHash);
    const reused =
      sameContent !== null &&
      !readsFurtherUnder(sameContent.error, this.deps.pageLimit) &&
      (await content.has(contentHash));
    if (sameContent && reused) {
      // Moved, renamed or copied: the content is already indexed.
      record.pages = sameContent.pages;
      record.title = sameContent.title;
      record.language = sameContent.language ?? null;
      // The same content lacks the same page images, if any could not be drawn.
      record.error = sameContent.error;
    } else {
      const password = await this.deps.password(file.id);
      const ocrSource = readsScans(file.kind) ? this.deps.ocr(contentHash) : null;
      // With OCR at hand, a PDF's layers are first judged by their text alone: measuring every page
      // in PDFium would cost about as much again before the file is searchable. The measure follows.
      const textOnly = file.kind === 'pdf' && ocrSource !== null;
      const parsed = await reader.parse(readable, {
        kind: file.kind,
        signal,
        ...(password ? { password } : {}),
        ...(ocrSource ? { ocr: ocrSource } : {}),
        ...(textOnly ? { textOnly } : {}),
        // A count known from a read cut at the page limit is the limit, not the file's length.
        ...(file.pages === null || wasCutShort(documents.get(file.id)?.error)
          ? {}
          : { pageCount: file.pages }),
        ...(urgent ? { urgent } : {}),
      });
      signal.throwIfAborted();
      // A repeated page is measured as the page it repeats.
      if (textOnly) pagesToCheck = parsed.pages.filter(measured).map((page) => page.page);
      await content.put(contentHash, parsed, [], { fileName: basename(file.path) });
      record.pages = parsed.pages.length;
      record.error = readingNote(parsed);
      record.title = parsed.title;
      record.language = detectDocumentLanguage(parsed.pages.map((page) => page.text));
      read = parsed;
    }
    signal.throwIfAborted();
    await documents.upsert(record);
    const pages = record.pages ?? 0;
    // Content just read has no images yet; reused content may have them already.
    const pagesWithoutImages = reused ? await content.pagesWithoutImages(contentHash) : pages;
    const source = readsScans(file.kind) ? this.deps.ocr(contentHash) : null;
    const key = source ? ocrKeyOf(source) : null;
    if (!key) return { contentHash, pages, pagesWithoutImages, pagesAwaitingOcr: 0, pagesToCheck, ocr: null };
    // Content just read is known here; reused content is asked of the index, which may hold OCR since.
    const { pagesAwaitingOcr, summary } = read
      ? ocrStateOfReading(contentHash, read, key)
      : {
          pagesAwaitingOcr: await recognized.pagesAwaitingOcr(contentHash, key),
          summary: await recognized.ocrSummary(contentHash, key),
        };
    return {
      contentHash,
      pages,
      pagesWithoutImages,
      pagesAwaitingOcr: pagesAwaitingOcr.length,
      pagesToCheck,
      ocr: summary,
    };
  }

  /** Records an end state in the index too, so a restart does not retry an unchanged file. */
  async recordFailure(
    file: FileToIngest,
    state: 'needsPassword' | 'failed' | 'quarantined' | 'unsupported',
    error: string,
  ): Promise<void> {
    await this.deps.documents
      .upsert({
        id: file.id,
        path: file.path,
        rootId: file.rootId,
        contentHash: null,
        kind: file.kind,
        title: null,
        pages: file.pages,
        bytes: file.bytes,
        modifiedMs: file.modifiedMs,
        state,
        error,
        indexedAt: null,
      })
      .catch((writeError: unknown) => console.error('quire: could not record a failed file', writeError));
  }
}

/** A page whose layer PDFium measures once the file is searchable: read, not a repeat, not for OCR. */
function measured(page: ParsedPage): boolean {
  return !page.needsOcr && page.textSource?.repeatOf === undefined;
}

/** What a failure means for the file. `signal` is the attempt's own. */
export function classifyFailure(error: unknown, signal: AbortSignal): FailureOutcome {
  // Superseded by a newer version of the file, or ingestion is stopping: not an error.
  if (isAbortError(error) || signal.aborted) return { kind: 'cancelled' };
  const info = toErrorInfo(error);
  // A file deleted while it was read: the watcher removes it from the library.
  if (info.code === 'not_found' || (error as NodeJS.ErrnoException).code === 'ENOENT')
    return { kind: 'cancelled' };
  if (info.code === 'needs_password' || info.code === 'wrong_password') {
    return { kind: 'final', state: 'needsPassword', message: info.message };
  }
  if (info.code === 'unsupported_format')
    return { kind: 'final', state: 'unsupported', message: info.message };
  if (info.code === 'unsupported' || info.code === 'invalid_input' || info.code === 'not_readable') {
    return { kind: 'final', state: 'failed', message: info.message };
  }
  return { kind: 'retry', message: info.message };
}
