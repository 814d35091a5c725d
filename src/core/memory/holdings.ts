/*
 * Who holds memory now, as the budget lists it: Quire's own process and every process under it
 * (measured), and inside Quire's process the parts that have no process of their own: document
 * reader threads and their OCR engines (estimated), LanceDB's caches (counted by LanceDB).
 */
import type { MemoryHolding } from '../../shared/domain/models';
import { readProcessTree, type ProcessMemory } from './processMemory';

/** One reader thread with pdfjs and a page canvas, beside the app (measured on the queue bench). */
export const READER_WORKER_BYTES = 250e6;
/** A Tesseract engine held by a reader thread, on top of the reader (554 MB peak per OCR worker). */
export const OCR_ENGINE_BYTES = 300e6;

export const APP_HOLDING_ID = 'app';

const CHILD_LABELS: Record<string, string> = {
  'modelHost.child': 'Model host (chat, embedding, reranking)',
  'pageEmbedder.child': 'Page embedder host',
  'textEmbedder.child': 'Text embedder host (ONNX)',
  'vision.child': 'Vision model host',
};

/**
 * Quire's process and its descendants, each measured. `children` names the ones Quire started itself
 * (pid and entry); others (Electron's renderer and GPU helpers) go by their program's name.
 */
export async function processHoldings(
  children: ReadonlyArray<{ pid: number; entry: string }>,
  readTree: (pid: number) => Promise<ProcessMemory[]> = readProcessTree,
): Promise<MemoryHolding[]> {
  const tree = await readTree(process.pid);
  const entryOf = new Map(children.map((child) => [child.pid, child.entry]));
  return tree.map((entry) => {
    if (entry.pid === process.pid) {
      return {
        id: APP_HOLDING_ID,
        label: 'Quire (its own process)',
        kind: 'app',
        bytes: entry.residentBytes,
        how: 'measured',
      } satisfies MemoryHolding;
    }
    const known = entryOf.get(entry.pid);
    return {
      id: `process:${entry.pid}`,
      label: (known && CHILD_LABELS[known]) ?? `${known ?? entry.name} (process ${entry.pid})`,
      kind: 'host',
      bytes: entry.residentBytes,
      how: 'measured',
    } satisfies MemoryHolding;
  });
}

/** The document pool's threads, inside Quire's process: estimated, since threads share its memory. */
export function poolHoldings(workers: { alive: number; ocr: number }): MemoryHolding[] {
  const holdings: MemoryHolding[] = [];
  if (workers.alive > 0) {
    holdings.push({
      id: 'pool',
      label: `Document readers (${workers.alive} ${workers.alive === 1 ? 'thread' : 'threads'})`,
      kind: 'workers',
      bytes: workers.alive * READER_WORKER_BYTES,
      how: 'estimated',
      partOf: APP_HOLDING_ID,
      count: workers.alive,
    });
  }
  if (workers.ocr > 0) {
    holdings.push({
      id: 'ocr',
      label: `OCR engines (${workers.ocr})`,
      kind: 'ocr',
      bytes: workers.ocr * OCR_ENGINE_BYTES,
      how: 'estimated',
      partOf: APP_HOLDING_ID,
      count: workers.ocr,
    });
  }
  return holdings;
}

/** LanceDB's index and metadata caches, as LanceDB counts them. */
export function cacheHolding(bytes: number): MemoryHolding {
  return {
    id: 'index-cache',
    label: 'Search index caches (LanceDB)',
    kind: 'cache',
    bytes,
    how: 'measured',
    partOf: APP_HOLDING_ID,
  };
}
