import type {
  DocumentInfo,
  DocumentState,
  IndexProgress,
  SkippedFile,
} from '../../../../shared/domain/library';
import { formatEta, formatRate, percent, plural } from '../../lib/format';

export const STATE_LABELS: Record<DocumentState, string> = {
  listed: 'Listed',
  queued: 'Queued',
  indexing: 'Indexing',
  indexed: 'Indexed',
  needsPassword: 'Needs password',
  failed: 'Failed',
  quarantined: 'Quarantined',
  unsupported: 'Not supported',
};

/** Documents of each root, sorted by their path inside it. */
export function documentsByRoot(documents: readonly DocumentInfo[]): Map<string, DocumentInfo[]> {
  const groups = new Map<string, DocumentInfo[]>();
  for (const doc of documents) {
    const group = groups.get(doc.rootId);
    if (group) group.push(doc);
    else groups.set(doc.rootId, [doc]);
  }
  for (const group of groups.values()) {
    group.sort((a, b) => a.relativePath.localeCompare(b.relativePath, undefined, { numeric: true }));
  }
  return groups;
}

/** Skipped files of each root, in the order the engine listed them. */
export function skippedByRoot(skipped: readonly SkippedFile[] = []): Map<string, SkippedFile[]> {
  const groups = new Map<string, SkippedFile[]>();
  for (const file of skipped) groups.set(file.rootId, [...(groups.get(file.rootId) ?? []), file]);
  return groups;
}

/** One part per state that has documents, in lifecycle order, e.g. "12 indexed · 1 failed". */
export function summarizeStates(documents: readonly DocumentInfo[]): string {
  const counts = new Map<DocumentState, number>();
  for (const doc of documents) counts.set(doc.state, (counts.get(doc.state) ?? 0) + 1);
  return (Object.keys(STATE_LABELS) as DocumentState[])
    .filter((state) => counts.has(state))
    .map((state) => `${counts.get(state)} ${STATE_LABELS[state].toLowerCase()}`)
    .join(' · ');
}

export interface ProgressView {
  /** 0-100, by pages when page counts are known, by files otherwise. */
  percent: number;
  files: string;
  pages: string | null;
  rate: string | null;
  eta: string | null;
  /** Page images still to draw once the text is in; null when none are left. */
  drawing: string | null;
  /** Scanned pages still to be read by OCR; null when none are left. */
  recognizing: string | null;
  finished: boolean;
  paused: boolean;
}

export function describeProgress(progress: IndexProgress): ProgressView {
  const byPages = progress.pagesTotal > 0;
  const finished = progress.filesTotal > 0 && progress.filesDone >= progress.filesTotal;
  const working = !finished && !progress.paused && progress.filesTotal > 0;
  return {
    percent: byPages
      ? percent(progress.pagesDone, progress.pagesTotal)
      : percent(progress.filesDone, progress.filesTotal),
    files: `${progress.filesDone} of ${plural(progress.filesTotal, 'file')}`,
    pages: byPages ? `${progress.pagesDone} of ${plural(progress.pagesTotal, 'page')}` : null,
    rate: working && progress.pagesPerSecond > 0 ? formatRate(progress.pagesPerSecond, 'pages') : null,
    eta: working ? formatEta(progress.etaSeconds) : null,
    drawing: progress.pagesToDraw > 0 ? `${plural(progress.pagesToDraw, 'page')} left to draw` : null,
    recognizing:
      progress.pagesToRecognize > 0
        ? `${plural(progress.pagesToRecognize, 'scanned page')} left to recognise`
        : null,
    finished,
    paused: progress.paused,
  };
}
