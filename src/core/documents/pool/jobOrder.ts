import type { DocumentJob } from './protocol';

/*
 * Where a job joins the pool's queue. Three tiers, first come first served within each: jobs someone
 * waits for (a page opened), then reading a file's text, then the work that follows the text (OCR,
 * PDFium's layer measure, drawing pages). A file is searchable once its text is read, and those
 * later jobs hold a worker for seconds each: queued in arrival order, a folder added while OCR runs
 * waited behind every OCR batch for a worker.
 */

const FOLLOWS_TEXT: ReadonlySet<DocumentJob['type']> = new Set(['ocr', 'layerCheck', 'render', 'countPages']);

interface Queued {
  urgent: boolean;
  job: DocumentJob;
}

function tierOf(queued: Queued): number {
  if (queued.urgent) return 0;
  return FOLLOWS_TEXT.has(queued.job.type) ? 2 : 1;
}

/** The index at which `job` joins `queue`: after every job of its tier or a more pressing one. */
export function queuePosition(queue: readonly Queued[], job: Queued): number {
  const tier = tierOf(job);
  const firstLater = queue.findIndex((queued) => tierOf(queued) > tier);
  return firstLater === -1 ? queue.length : firstLater;
}
