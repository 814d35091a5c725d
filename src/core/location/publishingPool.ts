import type { OcrStore } from '../documents/ocr/ocrStore';
import type { DocumentPool } from '../documents/pool/documentPool';

/**
 * The pool of a shared library's writer: workers draw and read pages into the local folders as
 * always, and each page image and OCR result is then copied to the store, where readers find it.
 */
export function publishingPool(pool: DocumentPool, ocrResults: Pick<OcrStore, 'publish'>): DocumentPool {
  return {
    ...pool,
    size: pool.size,
    maxPagesPerDocument: pool.maxPagesPerDocument,
    render: async (...args) => {
      const refs = await pool.render(...args);
      await args[2].publish(refs);
      return refs;
    },
    ocr: async (path, options) => {
      const outcomes = await pool.ocr(path, options);
      const read = outcomes.filter((outcome) => !outcome.reused).map((outcome) => outcome.page);
      await ocrResults.publish(options.ocr.contentHash, read);
      return outcomes;
    },
  };
}
