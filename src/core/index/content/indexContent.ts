import type { PageImageRef, ParsedDocument } from '../../documents/types';
import { QuireError } from '../../../shared/errors';
import type { ContentOwners, ContentRelease, DocumentCatalog } from '../documents/documentCatalog';
import { parseBoxes, parseTextSource, type StoredChunk, type StoredPage } from '../records';
import { pageId } from '../schema';
import { sqlIn, sqlString } from '../sql';
import type { IndexTables } from '../tables';
import { columnValues, inBatches, upsertRows } from '../tableIo';
import { assertContentHash, chunkRows, imageColumns, pageRows } from './contentRows';
import { ContentWrites, type ContentRows } from './contentWrites';
import type { FullTextIndexes } from './fullText';

export interface PutContentOptions {
  /** The file's name, indexed with every chunk so BM25 can match it. */
  fileName?: string;
}

/**
 * What a file holds, keyed by its content hash: chunks and pages, shared by every file with the
 * same bytes. Content rows are written first and become visible only once a documents row in state
 * `indexed` names their hash; content no row names is garbage.
 */
export interface ContentStore {
  /** Whether the content of this hash is fully stored (pages are written last). */
  has(contentHash: string): Promise<boolean>;
  /**
   * Stores the chunks and pages of one file's content. Idempotent: a retry after a crash leaves
   * exactly the same rows. Not visible to search until a documents row in state `indexed` names it.
   * Files put while a write runs are written together in the next one (see ContentWrites).
   */
  put(
    contentHash: string,
    parsed: ParsedDocument,
    images?: PageImageRef[],
    options?: PutContentOptions,
  ): Promise<void>;
  chunk(chunkId: string): Promise<StoredChunk>;
  page(documentId: string, page: number): Promise<StoredPage>;
  /** Deletes content that no documents row names; returns those hashes. */
  collectGarbage(): Promise<string[]>;
}

/** Page images are drawn after the text: this is how they are attached to stored pages. */
export interface PageImageSlots {
  /**
   * Marks content whose page images are being drawn: its pages are not embedded until
   * `pageImagesSettled()`, so a page embedder sees each page once, with its image.
   */
  expectPageImages(contentHash: string): void;
  pageImagesSettled(contentHash: string): void;
  /** Whether this content's images are being drawn. */
  awaitingImages(contentHash: string): boolean;
  /** How many pages of this content have no image yet. */
  pagesWithoutImages(contentHash: string): Promise<number>;
  /** Content hashes with at least one page that has no image yet. */
  contentMissingImages(): Promise<string[]>;
  /** Pages of this content that repeat an earlier page (PageTextSource.repeatOf), each with that page. */
  repeatedPages(contentHash: string): Promise<Map<number, number>>;
  /**
   * Points pages of stored content at their images. Pages not in `images` keep what they had. Page
   * vectors of those pages are dropped, so they are embedded again with the image.
   */
  setPageImages(contentHash: string, images: PageImageRef[]): Promise<void>;
}

/** What content needs of the vector part when rows go or change. Runs inside the write queue. */
export interface VectorCleanup {
  forgetContent(contentHashes: string[]): Promise<void>;
  forgetPages(pageIds: string[]): Promise<void>;
}

export type ContentRemovedHook = (contentHashes: string[]) => Promise<void>;

export class IndexContent implements ContentStore, PageImageSlots, ContentRelease {
  /** Hashes written in this session whose documents row has not been written yet: never garbage. */
  private readonly inFlight = new Set<string>();
  private readonly writes: ContentWrites;
  /**
   * Hashes that have or may have rows: those found when garbage was removed at open, and every one
   * written since. Null until then (a read-only library, or a store opened without that pass).
   */
  private hashesWithRows: Set<string> | null = null;

  constructor(
    private readonly tables: IndexTables,
    private readonly documents: ContentOwners & Pick<DocumentCatalog, 'get'>,
    private readonly fullText: FullTextIndexes,
    private readonly vectors: VectorCleanup,
    /** Content whose page images are being drawn (its pages are embedded once they arrive). */
    private readonly imagesToCome: Set<string>,
    /** Told which content was deleted, e.g. to delete its page images. */
    private readonly onRemoved: ContentRemovedHook | undefined,
  ) {
    this.writes = new ContentWrites(
      tables,
      (written, rewritten) => this.afterContentWrite(written, rewritten),
      {
        mayHaveRows: (hash) => this.hashesWithRows?.has(hash) ?? true,
        willHaveRows: (hash) => this.hashesWithRows?.add(hash),
      },
    );
  }

  async has(contentHash: string): Promise<boolean> {
    assertContentHash(contentHash);
    this.tables.assertOpen();
    return (await this.tables.pages.countRows(`content_hash = ${sqlString(contentHash)}`)) > 0;
  }

  async put(
    contentHash: string,
    parsed: ParsedDocument,
    images: PageImageRef[] = [],
    options: PutContentOptions = {},
  ): Promise<void> {
    assertContentHash(contentHash);
    if (!parsed || !Array.isArray(parsed.pages) || !Array.isArray(parsed.chunks)) {
      throw new QuireError('invalid_input', 'Cannot index this document: it has no pages list.');
    }
    const chunks = chunkRows(contentHash, parsed, options.fileName ?? null);
    const pages = pageRows(contentHash, parsed, images);
    this.tables.assertOpen();
    this.inFlight.add(contentHash);
    return this.writes.write({ contentHash, chunks, pages });
  }

  /** After a group of content is written, inside the write queue. */
  private async afterContentWrite(written: ContentRows[], rewritten: string[]): Promise<void> {
    // Old vectors may not match rewritten chunks: drop them so they are embedded again.
    if (rewritten.length > 0) await this.vectors.forgetContent(rewritten);
    this.fullText.added(written.reduce((sum, rows) => sum + rows.chunks.length, 0));
    await this.fullText.ensure();
  }

  async chunk(chunkId: string): Promise<StoredChunk> {
    this.tables.assertOpen();
    const rows = await this.tables.chunks
      .query()
      .where(`id = ${sqlString(String(chunkId))}`)
      .limit(1)
      .toArray();
    const row = rows[0] as Record<string, unknown> | undefined;
    const owner = row ? this.documents.owners().get(String(row.content_hash))?.[0] : undefined;
    if (!row || !owner) throw new QuireError('not_found', `No chunk "${chunkId}" in the index.`);
    return {
      chunkId: String(row.id),
      documentId: owner.id,
      path: owner.path,
      page: Number(row.page),
      text: String(row.text),
      heading: (row.heading as string | null) ?? null,
      charStart: Number(row.char_start),
      charEnd: Number(row.char_end),
      boxes: parseBoxes(row.boxes),
    };
  }

  async page(documentId: string, page: number): Promise<StoredPage> {
    this.tables.assertOpen();
    const document = this.documents.get(documentId);
    if (!document) throw new QuireError('not_found', `No document with id "${documentId}" in the index.`);
    if (!Number.isInteger(page) || page < 1)
      throw new QuireError('invalid_input', 'Pages are numbered from 1.');
    const rows = document.contentHash
      ? await this.tables.pages
          .query()
          .where(`id = ${sqlString(pageId(document.contentHash, page))}`)
          .limit(1)
          .toArray()
      : [];
    const row = rows[0] as Record<string, unknown> | undefined;
    if (!row) throw new QuireError('not_found', `Page ${page} of ${document.path} is not in the index.`);
    const full = row.image_full as string | null;
    return {
      documentId,
      path: document.path,
      page,
      width: Number(row.width),
      height: Number(row.height),
      needsOcr: Boolean(row.needs_ocr),
      text: String(row.text),
      textSource: parseTextSource(row.text_source),
      image:
        full === null
          ? null
          : {
              full,
              thumbnail: String(row.image_thumbnail ?? full),
              width: Number(row.image_width),
              height: Number(row.image_height),
            },
    };
  }

  // ---- page images ----

  expectPageImages(contentHash: string): void {
    this.imagesToCome.add(contentHash);
  }

  pageImagesSettled(contentHash: string): void {
    this.imagesToCome.delete(contentHash);
  }

  awaitingImages(contentHash: string): boolean {
    return this.imagesToCome.has(contentHash);
  }

  async pagesWithoutImages(contentHash: string): Promise<number> {
    assertContentHash(contentHash);
    this.tables.assertOpen();
    return this.tables.pages.countRows(`content_hash = ${sqlString(contentHash)} AND image_full IS NULL`);
  }

  async contentMissingImages(): Promise<string[]> {
    this.tables.assertOpen();
    return [...new Set(await columnValues(this.tables.pages, 'content_hash', 'image_full IS NULL'))].sort();
  }

  async repeatedPages(contentHash: string): Promise<Map<number, number>> {
    assertContentHash(contentHash);
    this.tables.assertOpen();
    const rows = (await this.tables.pages
      .query()
      .where(`content_hash = ${sqlString(contentHash)} AND text_source LIKE '%"repeatOf"%'`)
      .select(['page', 'text_source'])
      .toArray()) as Array<{ page: number; text_source: string | null }>;
    const repeats = new Map<number, number>();
    for (const row of rows) {
      const first = parseTextSource(row.text_source)?.repeatOf;
      if (first !== undefined) repeats.set(Number(row.page), first);
    }
    return repeats;
  }

  setPageImages(contentHash: string, images: PageImageRef[]): Promise<void> {
    assertContentHash(contentHash);
    return this.tables.exclusive(async () => {
      this.tables.assertOpen();
      const scope = `content_hash = ${sqlString(contentHash)}`;
      const imageOf = new Map(images.map((image) => [image.page, image]));
      const rows = (await this.tables.pages.query().where(scope).toArray()) as Array<Record<string, unknown>>;
      const changed = rows
        .filter((row) => {
          const image = imageOf.get(Number(row.page));
          return image !== undefined && image.full !== row.image_full;
        })
        .map((row) => ({
          id: row.id,
          content_hash: row.content_hash,
          page: row.page,
          width: row.width,
          height: row.height,
          needs_ocr: row.needs_ocr,
          ...imageColumns(imageOf.get(Number(row.page))),
          text: row.text,
          text_source: row.text_source ?? null,
        }));
      if (changed.length === 0) return;
      await upsertRows(this.tables.pages, 'id', changed);
      await this.vectors.forgetPages(changed.map((row) => String(row.id)));
    });
  }

  // ---- garbage ----

  collectGarbage(): Promise<string[]> {
    return this.tables.exclusive(() => this.removeGarbage());
  }

  /** Deletes content no row names (left by a crash between the content and documents writes). */
  async removeGarbage(): Promise<string[]> {
    this.tables.assertOpen();
    const stored = new Set<string>();
    for (const table of [this.tables.chunks, this.tables.pages, ...(await this.tables.vectorTables())]) {
      for (const hash of await columnValues(table, 'content_hash')) stored.add(hash);
    }
    const used = this.referencedHashes();
    const garbage = [...stored].filter((hash) => !used.has(hash)).sort();
    await this.deleteContent(garbage);
    // Deleted hashes stay on record: asking the tables about one again only costs a read.
    this.hashesWithRows = stored;
    return garbage;
  }

  committed(contentHash: string): void {
    this.inFlight.delete(contentHash);
  }

  async releaseIfUnused(contentHashes: string[]): Promise<void> {
    const used = this.referencedHashes();
    await this.deleteContent(contentHashes.filter((hash) => !used.has(hash)));
  }

  /** Hashes with rows that must stay: named by a document, or still being written. */
  referencedHashes(): Set<string> {
    const used = this.documents.referencedHashes();
    for (const hash of this.inFlight) used.add(hash);
    return used;
  }

  private async deleteContent(hashes: string[]): Promise<void> {
    if (hashes.length === 0) return;
    for (const batch of inBatches(hashes)) {
      const where = sqlIn('content_hash', batch);
      await this.tables.chunks.delete(where);
      await this.tables.pages.delete(where);
    }
    await this.vectors.forgetContent(hashes);
    // Failing to delete what went with the content (page images) must not fail the write.
    await this.onRemoved?.(hashes).catch((error: unknown) =>
      console.error('quire: could not delete what went with removed content', error),
    );
  }
}
