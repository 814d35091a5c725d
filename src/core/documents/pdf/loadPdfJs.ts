import type * as PdfJsModule from 'pdfjs-dist/legacy/build/pdf.mjs';

export type PdfJs = typeof PdfJsModule;

let pdfjsPromise: Promise<PdfJs> | undefined;

/**
 * Loads pdfjs (large, so on first use rather than at start-up) together with its worker half, which
 * then runs in this thread: the document pool already gives each thread its own pdfjs.
 *
 * The legacy build carries core-js, which replaces `Array.prototype.push`, `JSON.parse` and
 * `JSON.stringify` for the whole thread because Node's versions miss spec corners pdfjs never
 * touches (pushing onto a frozen length, raw JSON). The replacements are plain JavaScript; `push`
 * alone took a fifth of text extraction. The native functions are put back once both halves load.
 */
export function loadPdfJs(): Promise<PdfJs> {
  pdfjsPromise ??= (async () => {
    const natives = { push: Array.prototype.push, parse: JSON.parse, stringify: JSON.stringify };
    try {
      const [pdfjs, worker] = await Promise.all([
        import('pdfjs-dist/legacy/build/pdf.mjs'),
        import('pdfjs-dist/legacy/build/pdf.worker.mjs'),
      ]);
      // pdfjs uses a worker module found here instead of importing its own copy by URL.
      (globalThis as { pdfjsWorker?: unknown }).pdfjsWorker = worker;
      return pdfjs;
    } finally {
      Object.defineProperty(Array.prototype, 'push', { value: natives.push });
      Object.defineProperty(JSON, 'parse', { value: natives.parse });
      Object.defineProperty(JSON, 'stringify', { value: natives.stringify });
    }
  })();
  return pdfjsPromise;
}
