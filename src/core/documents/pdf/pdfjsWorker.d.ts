// pdfjs ships no types for its worker half; Quire only hands the module back to pdfjs.
declare module 'pdfjs-dist/legacy/build/pdf.worker.mjs' {
  export const WorkerMessageHandler: unknown;
}
