import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { init, type WrappedPdfiumModule } from '@embedpdf/pdfium';

/** The parts of the Emscripten runtime Quire uses, typed here because the package's types lean on globals. */
export interface PdfiumRuntime {
  HEAPU8: Uint8Array;
  wasmExports: { malloc(size: number): number; free(pointer: number): void };
}

export type Pdfium = WrappedPdfiumModule & { runtime: PdfiumRuntime };

let pdfiumPromise: Promise<Pdfium> | undefined;
let current: Pdfium | undefined;

/**
 * PDFium compiled to WebAssembly, one instance per thread, started on first use. Its memory only
 * grows, so a thread that drew an enormous page keeps that memory until `discardPdfium()`.
 */
export function loadPdfium(): Promise<Pdfium> {
  pdfiumPromise ??= (async () => {
    const wasmPath = createRequire(import.meta.url).resolve('@embedpdf/pdfium/pdfium.wasm');
    const wasmBinary = await readFile(wasmPath);
    const module = await init({ wasmBinary });
    module.PDFiumExt_Init();
    current = Object.assign(module, { runtime: module.pdfium as unknown as PdfiumRuntime });
    return current;
  })();
  pdfiumPromise.catch(() => (pdfiumPromise = undefined));
  return pdfiumPromise;
}

/**
 * Drops `instance` if it is still this thread's, after a trap left it in an unknown state or its
 * memory grew large; the next use starts a new one and the old memory goes with its last document.
 */
export function discardPdfium(instance: Pdfium): void {
  if (instance !== current) return;
  current = undefined;
  pdfiumPromise = undefined;
}
