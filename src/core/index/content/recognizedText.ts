import type { ParsedDocument } from '../../documents/types';
import type { DocumentOcr } from '../../../shared/domain/library';
import { QuireError } from '../../../shared/errors';
import { parseTextSource } from '../records';
import { sqlString } from '../sql';
import type { IndexTables } from '../tables';
import { replaceScope, upsertRows } from '../tableIo';
import { assertContentHash, chunkRows, pageRows } from './contentRows';
import type { FullTextIndexes } from './fullText';
import type { VectorCleanup } from './indexContent';

/** The OCR settings a page's reading must match to count as done. */
export interface OcrSettingsKey {
  engine: string;
  languages: readonly string[];
}

/**
 * The pages OCR reads after the text: which are waiting, how a document's pages were read, and
 * the rewrite of a document's text once they are. The pages table is the one record of all this.
 */
export interface RecognizedText {
  /** Pages of this content that need OCR and have not been read with these settings. */
  pagesAwaitingOcr(contentHash: string, key: OcrSettingsKey): Promise<number[]>;
  /** Content with at least one such page. */
  contentAwaitingOcr(key: OcrSettingsKey): Promise<string[]>;
  /** How this content's pages were read, for the library; null when no page needed OCR. */
  ocrSummary(contentHash: string, key: OcrSettingsKey): Promise<DocumentOcr | null>;
  /** The same for every content with a page that needed OCR, in one read (the library's list at start). */
  ocrSummaries(key: OcrSettingsKey): Promise<Map<string, DocumentOcr>>;
  /**
   * Replaces the chunks and page text of stored content with a new reading of the same file (the
   * one OCR completed). Page images stay; vectors are dropped, to be embedded again from the new text.
   */
  replaceText(contentHash: string, parsed: ParsedDocument, fileName: string | null): Promise<void>;
  /** Marks content whose pages OCR is reading: it is not embedded until `textSettled()`. */
  expectText(contentHash: string): void;
  textSettled(contentHash: string): void;
}

type Row = Record<string, unknown>;

/**
 * What `pagesAwaitingOcr` and `ocrSummary` will answer for content just read, from its pages as
 * they are stored: the ingestion of a new file learns it without reading the pages table back.
 */
export function ocrStateOfReading(
  contentHash: string,
  parsed: ParsedDocument,
  key: OcrSettingsKey,
): { pagesAwaitingOcr: number[]; summary: DocumentOcr | null } {
  const rows = pageRows(contentHash, parsed, []).filter((row) => row.needs_ocr === true);
  return {
    pagesAwaitingOcr: rows.filter((row) => awaiting(row, key)).map((row) => Number(row.page)),
    summary: rows.length === 0 ? null : summarize(rows, key),
  };
}

export class IndexRecognizedText implements RecognizedText {
  constructor(
    private readonly tables: IndexTables,
    private readonly fullText: FullTextIndexes,
    private readonly vectors: VectorCleanup,
    /** Content whose scanned pages are being read (shared with the vectors part, which waits for it). */
    private readonly textToCome: Set<string>,
  ) {}

  expectText(contentHash: string): void {
    this.textToCome.add(contentHash);
  }

  textSettled(contentHash: string): void {
    this.textToCome.delete(contentHash);
  }

  async pagesAwaitingOcr(contentHash: string, key: OcrSettingsKey): Promise<number[]> {
    assertContentHash(contentHash);
    const rows = await this.pagesNeedingOcr(`content_hash = ${sqlString(contentHash)}`);
    return rows
      .filter((row) => awaiting(row, key))
      .map((row) => Number(row.page))
      .sort((a, b) => a - b);
  }

  async contentAwaitingOcr(key: OcrSettingsKey): Promise<string[]> {
    const rows = await this.pagesNeedingOcr();
    return [
      ...new Set(rows.filter((row) => awaiting(row, key)).map((row) => String(row.content_hash))),
    ].sort();
  }

  async ocrSummary(contentHash: string, key: OcrSettingsKey): Promise<DocumentOcr | null> {
    assertContentHash(contentHash);
    const rows = await this.pagesNeedingOcr(`content_hash = ${sqlString(contentHash)}`);
    return rows.length === 0 ? null : summarize(rows, key);
  }

  async ocrSummaries(key: OcrSettingsKey): Promise<Map<string, DocumentOcr>> {
    const byContent = new Map<string, Row[]>();
    for (const row of await this.pagesNeedingOcr()) {
      const hash = String(row.content_hash);
      const rows = byContent.get(hash);
      if (rows) rows.push(row);
      else byContent.set(hash, [row]);
    }
    return new Map([...byContent].map(([hash, rows]) => [hash, summarize(rows, key)]));
  }

  replaceText(contentHash: string, parsed: ParsedDocument, fileName: string | null): Promise<void> {
    assertContentHash(contentHash);
    const chunks = chunkRows(contentHash, parsed, fileName);
    const pages = pageRows(contentHash, parsed, []);
    return this.tables.exclusive(async () => {
      this.tables.assertOpen();
      const scope = `content_hash = ${sqlString(contentHash)}`;
      const stored = (await this.tables.pages.query().where(scope).toArray()) as Row[];
      if (stored.length !== pages.length) {
        throw new QuireError('internal', 'The file now has a different number of pages: it is read again.');
      }
      const before = new Map(stored.map((row) => [String(row.id), row]));
      // Images were drawn apart from the text: each page keeps its own.
      const merged = pages.map((row) => {
        const old = before.get(String(row.id));
        return {
          ...row,
          image_full: old?.image_full ?? null,
          image_thumbnail: old?.image_thumbnail ?? null,
          image_width: old?.image_width ?? null,
          image_height: old?.image_height ?? null,
        };
      });
      await replaceScope(this.tables.chunks, 'id', chunks, scope);
      await upsertRows(this.tables.pages, 'id', merged);
      await this.vectors.forgetContent([contentHash]);
      this.fullText.added(chunks.length);
      await this.fullText.ensure();
    });
  }

  private async pagesNeedingOcr(scope?: string): Promise<Row[]> {
    this.tables.assertOpen();
    const where = scope ? `needs_ocr = true AND ${scope}` : 'needs_ocr = true';
    return (await this.tables.pages
      .query()
      .where(where)
      .select(['content_hash', 'page', 'text_source'])
      .toArray()) as Row[];
  }
}

/** A page that needs OCR and has not been read with these settings. */
function awaiting(row: Row, key: OcrSettingsKey): boolean {
  const ocr = parseTextSource(row.text_source)?.ocr;
  return !ocr || ocr.engine !== key.engine || ocr.languages.join('+') !== key.languages.join('+');
}

/** How a content's pages that needed OCR were read, from their page rows. */
function summarize(rows: Row[], key: OcrSettingsKey): DocumentOcr {
  let read = 0;
  let unreadable = 0;
  let waiting = 0;
  let confidenceSum = 0;
  let confidenceCount = 0;
  const engines = new Set<string>();
  for (const row of rows) {
    const source = parseTextSource(row.text_source);
    if (awaiting(row, key)) {
      waiting++;
      continue;
    }
    const ocr = source?.ocr;
    if (!ocr) continue;
    if (source.method === 'ocr') {
      read++;
      engines.add(source.engine ?? ocr.engine);
      if (ocr.confidence !== null) {
        confidenceSum += ocr.confidence;
        confidenceCount++;
      }
    } else if (ocr.reason !== 'partial') {
      unreadable++;
    }
  }
  return {
    pagesNeedingOcr: rows.length,
    pagesRead: read,
    pagesUnreadable: unreadable,
    pagesWaiting: waiting,
    confidence: confidenceCount > 0 ? confidenceSum / confidenceCount : null,
    engine: [...engines].join(', ') || null,
  };
}
