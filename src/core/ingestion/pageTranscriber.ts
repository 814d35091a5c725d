import type { DocumentPool } from '../documents/pool/documentPool';
import type { OcrSource } from '../documents/pool/protocol';
import type { OcrStore } from '../documents/ocr/ocrStore';
import { ocrKeyOf } from '../documents/ocr/recognizePdfPages';
import type { PageImageStore } from '../documents/render/pageImageStore';
import type { IndexedDocument } from '../index/records';
import type { ModelRoles } from '../models/types';

/** Pages OCR read with less mean confidence than this are given to the vision model, when there is one. */
export const WEAK_PAGE_CONFIDENCE = 0.7;
const MAX_TRANSCRIPT_TOKENS = 2000;

export interface PageTranscriberDeps {
  models: Pick<ModelRoles, 'chatModel'>;
  store: OcrStore;
  pool: Pick<DocumentPool, 'render'>;
  images: PageImageStore;
  /** Long edge of stored page images, which are what the model is shown. */
  longEdge: number;
  password: (documentId: string) => Promise<string | undefined>;
}

/**
 * The optional second reading of scanned pages: a page OCR read poorly is shown to the `see` model
 * (a vision model), whose transcription replaces the page's words while OCR's boxes stay, so
 * citations still land on the right lines. Without a vision model this does nothing, and says so
 * in no page: the page keeps its OCR text and confidence.
 */
export class PageTranscriber {
  constructor(private readonly deps: PageTranscriberDeps) {}

  /** `file` is the document's id (for its password) and the real path to draw its pages from. */
  async transcribeWeakPages(
    file: Pick<IndexedDocument, 'id' | 'path'>,
    pages: number[],
    source: OcrSource,
    signal: AbortSignal,
  ): Promise<number> {
    const { store, models } = this.deps;
    const key = ocrKeyOf(source);
    const weak: number[] = [];
    for (const page of pages) {
      const record = await store.get(source.contentHash, page, key);
      if (
        record &&
        !record.transcription &&
        record.confidence !== null &&
        record.confidence < WEAK_PAGE_CONFIDENCE
      ) {
        weak.push(page);
      }
    }
    if (weak.length === 0) return 0;
    const model = await models.chatModel('see');
    if (!model?.supportsImages) return 0;
    const password = await this.deps.password(file.id);
    let transcribed = 0;
    for (const page of weak) {
      signal.throwIfAborted();
      const [image] = await this.deps.pool.render(
        file.path,
        {
          contentHash: source.contentHash,
          pages: [page],
          longEdge: this.deps.longEdge,
          signal,
          ...(password ? { password } : {}),
        },
        this.deps.images,
      );
      if (!image) continue;
      const bytes = await this.deps.images.read(image.full);
      const response = await model.chat({
        messages: [
          {
            role: 'system',
            content:
              'You transcribe scanned document pages. Write out all the text on the page exactly as printed, ' +
              'line by line, in reading order. Output only the text: no comments, no formatting.',
          },
          { role: 'user', content: 'Transcribe this page.', images: [bytes] },
        ],
        maxTokens: MAX_TRANSCRIPT_TOKENS,
        temperature: 0,
        signal,
      });
      const text = response.text.trim();
      const record = await store.get(source.contentHash, page, key);
      if (!text || !record) continue;
      await store.put(source.contentHash, page, { ...record, transcription: { model: model.id, text } });
      transcribed++;
    }
    return transcribed;
  }
}
