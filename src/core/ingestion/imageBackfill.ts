import { isAbortError, toErrorInfo } from '../../shared/errors';
import type { DocumentPool } from '../documents/pool/documentPool';
import type { PageImageStore } from '../documents/render/pageImageStore';
import type { PageImageRef } from '../documents/types';
import type { PageImageSlots } from '../index/content/indexContent';
import type { DocumentCatalog } from '../index/documents/documentCatalog';
import type { IndexedDocument } from '../index/records';
import { drawsPages } from '../documents/readers/formatReaders';
import { drawPageImages } from './drawPageImages';
import { withReadingNote } from './readingNote';
import type { Scheduler } from './scheduler';

/** What drawing tells the progress of ingestion. */
export interface DrawingProgress {
  drawingAdded(pages: number): void;
  drawingFinished(pages: number): void;
  working(path: string): void;
  changed(): void;
}

export interface ImageBackfillDeps {
  documents: Pick<DocumentCatalog, 'indexedWithContent' | 'allIndexedWithContent' | 'get' | 'setState'>;
  content: PageImageSlots;
  pool: Pick<DocumentPool, 'render'>;
  images: PageImageStore;
  password: (documentId: string) => Promise<string | undefined>;
  /** The real path to read a library file from; throws when the path policy no longer allows it. */
  readablePath: (path: string) => Promise<string>;
  scheduler: Scheduler;
  progress: DrawingProgress;
  /** Long edge of stored page images, in pixels. */
  longEdge: number;
  /** A document's error changed because some of its page images are missing (or no longer are). */
  onProblem: (documentId: string, problem: string | null) => void;
}

/**
 * Page images of indexed PDFs, drawn after every queued file's text and attached to their pages.
 * A page the user opens before its turn is drawn on demand. Drawing failures cost images, never text:
 * the file stays indexed and its error says what is missing.
 */
export class ImageBackfill {
  constructor(private readonly deps: ImageBackfillDeps) {}

  /** Queues the page images of this content, once (a queued or running drawing of it is enough). */
  queue(contentHash: string, pages: number): void {
    const { scheduler, content, progress } = this.deps;
    const key = drawingKey(contentHash);
    if (scheduler.queued(key) || scheduler.isRunning(key)) return;
    content.expectPageImages(contentHash);
    progress.drawingAdded(pages);
    scheduler.add(
      {
        key,
        run: (signal) => this.draw(contentHash, pages, signal),
        dropped: () => {
          progress.drawingFinished(pages);
          content.pageImagesSettled(contentHash);
        },
      },
      'background',
    );
  }

  /** Page images an earlier run did not finish (it stopped, or crashed, after the text). */
  async queueMissing(): Promise<void> {
    try {
      for (const hash of await this.deps.content.contentMissingImages()) {
        const owner = this.imageOwner(hash);
        if (owner) this.queue(hash, owner.pages ?? 0);
      }
    } catch (error) {
      console.error('quire: could not look for pages without images', error);
    }
  }

  /**
   * Draws one page of an indexed document now, ahead of its document's turn (the user opened it),
   * and attaches the image. Null when the file is not indexed or its pages have no images.
   */
  async drawPageNow(documentId: string, page: number, signal?: AbortSignal): Promise<PageImageRef | null> {
    const { documents, pool, images, content } = this.deps;
    const doc = documents.get(documentId);
    if (!doc?.contentHash || !drawsPages(doc.kind) || doc.state !== 'indexed') return null;
    const password = await this.deps.password(doc.id);
    const [image] = await pool.render(
      await this.deps.readablePath(doc.path),
      {
        kind: doc.kind,
        contentHash: doc.contentHash,
        pages: [page],
        longEdge: this.deps.longEdge,
        // The person is looking at this page: ahead of background drawing and OCR.
        urgent: true,
        ...(signal ? { signal } : {}),
        ...(password ? { password } : {}),
      },
      images,
    );
    if (!image || this.imageOwner(doc.contentHash)?.contentHash !== doc.contentHash) return null;
    await content.setPageImages(doc.contentHash, [image]);
    return image;
  }

  private async draw(contentHash: string, pages: number, signal: AbortSignal): Promise<void> {
    const { content, images, pool, progress } = this.deps;
    try {
      const owner = this.imageOwner(contentHash);
      if (!owner) return;
      progress.working(owner.path);
      const password = await this.deps.password(owner.id);
      const drawn = await drawPageImages(pool, images, {
        path: await this.deps.readablePath(owner.path),
        kind: owner.kind,
        contentHash,
        pageCount: owner.pages ?? 0,
        longEdge: this.deps.longEdge,
        signal,
        repeats: await content.repeatedPages(contentHash),
        ...(password ? { password } : {}),
      });
      // The file may have changed or gone while its pages were drawn.
      if (!this.imageOwner(contentHash)) {
        await images.remove(contentHash).catch(() => undefined);
        return;
      }
      await content.setPageImages(contentHash, drawn.images);
      await this.noteProblem(contentHash, drawn.problem);
    } catch (error) {
      if (isAbortError(error) || signal.aborted) return;
      await this.noteProblem(contentHash, `Page images could not be drawn: ${toErrorInfo(error).message}`);
    } finally {
      if (!this.deps.scheduler.queued(drawingKey(contentHash))) content.pageImagesSettled(contentHash);
      progress.drawingFinished(pages);
      progress.changed();
    }
  }

  /** An indexed document with this content and page images, whose path and password they are drawn from. */
  private imageOwner(contentHash: string): IndexedDocument | null {
    const owner = this.deps.documents.indexedWithContent(contentHash);
    return owner && drawsPages(owner.kind) ? owner : null;
  }

  /** Shows why page images are missing on every indexed file with this content (or clears it). */
  private async noteProblem(contentHash: string, problem: string | null): Promise<void> {
    const { documents } = this.deps;
    try {
      for (const doc of documents.allIndexedWithContent(contentHash)) {
        // What reading the file left out stays said beside what drawing it left out.
        const error = withReadingNote(doc.error, problem);
        if (doc.error === error) continue;
        await documents.setState(doc.id, 'indexed', error);
        this.deps.onProblem(doc.id, error);
      }
    } catch (error) {
      // The index is closing or unwritable; the images are looked for again at the next start.
      console.error('quire: could not record why page images are missing', error);
    }
  }
}

function drawingKey(contentHash: string): string {
  return `draw:${contentHash}`;
}
