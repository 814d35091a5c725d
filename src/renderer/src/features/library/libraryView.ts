import type {
  DocumentInfo,
  DocumentState,
  IndexProgress,
  SkippedFile,
  WorkKind,
} from '../../../../shared/domain/library';
import { languageName, UNDETERMINED_LANGUAGE } from '../../../../shared/domain/language';
import { compareLibraryPaths } from '../../../../shared/domain/libraryOrder';
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

/**
 * Documents of each root, in the order given. A listing's documents are in library order (by path),
 * so each root's come out by their path inside it: grouping them is one pass, with no sort.
 */
export function documentsByRoot(documents: readonly DocumentInfo[]): Map<string, readonly DocumentInfo[]> {
  // One folder (the usual library): its documents are the listing's, kept as they are.
  const only = documents[0]?.rootId;
  if (only !== undefined && documents.every((doc) => doc.rootId === only))
    return new Map([[only, documents]]);
  const groups = new Map<string, DocumentInfo[]>();
  for (const doc of documents) {
    const group = groups.get(doc.rootId);
    if (group) group.push(doc);
    else groups.set(doc.rootId, [doc]);
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
  /** Why indexing stopped on its own (the disk is full); null while it runs or the user paused it. */
  stopped: string | null;
}

/** `library` counts files over the whole library; without it, over this busy period. */
export function describeProgress(
  progress: IndexProgress,
  library: LibraryCounts | null = null,
): ProgressView {
  const byPages = progress.pagesTotal > 0;
  const finished = progress.filesTotal > 0 && progress.filesDone >= progress.filesTotal;
  const working = !finished && !progress.paused && progress.filesTotal > 0;
  return {
    percent: byPages
      ? percent(progress.pagesDone, progress.pagesTotal)
      : percent(progress.filesDone, progress.filesTotal),
    files: library
      ? `${library.settled} of ${plural(library.files, 'file')}`
      : `${progress.filesDone} of ${plural(progress.filesTotal, 'file')}`,
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
    stopped: progress.stopped,
  };
}

/** The whole library's files, for the progress card: a busy period counts only the files it read. */
export interface LibraryCounts {
  files: number;
  /** Files read to their end: indexed, failed, locked or not supported. */
  settled: number;
  /** Failed, or quarantined after failing again and again. */
  failed: number;
}

export function countLibrary(documents: readonly DocumentInfo[]): LibraryCounts {
  let settled = 0;
  let failed = 0;
  for (const doc of documents) {
    if (!PASSING_STATES.has(doc.state)) settled++;
    if (doc.state === 'failed' || doc.state === 'quarantined') failed++;
  }
  return { files: documents.length, settled, failed };
}

/** "OCR 0 of 6": pages of one kind of work done of its total; null when that work has none left. */
function workLeft(progress: IndexProgress, kind: WorkKind, name: string, pagesLeft: number): string | null {
  const line = (progress.work ?? []).find((candidate) => candidate.kind === kind);
  if (line && line.pagesDone < line.pagesTotal) return `${name} ${line.pagesDone} of ${line.pagesTotal}`;
  return pagesLeft > 0 ? `${name} ${plural(pagesLeft, 'page')} left` : null;
}

/**
 * The progress card's headline: only what holds. The text can be searchable while OCR and page
 * images still run, and a library with failed files is not "indexed"; files count over the library.
 */
export function progressHeadline(progress: IndexProgress, library: LibraryCounts | null): string {
  if (progress.stopped !== null) return 'Indexing stopped';
  if (progress.paused) return 'Indexing paused';
  const view = describeProgress(progress);
  const waiting = library !== null && library.settled < library.files;
  if (!view.finished) return 'Indexing';
  const failed = library !== null && library.failed > 0 ? plural(library.failed, 'file') + ' failed' : null;
  const behind = [
    workLeft(progress, 'ocr', 'OCR', progress.pagesToRecognize),
    workLeft(progress, 'images', 'page images', progress.pagesToDraw),
  ].filter((part) => part !== null);
  if (behind.length > 0) return ['Text searchable', ...behind, ...(failed ? [failed] : [])].join('; ');
  if (failed) return failed;
  // Files left unread (indexing was cancelled): say how far it got rather than "indexed".
  if (waiting) return `${library.settled} of ${plural(library.files, 'file')} read`;
  return 'Everything is indexed';
}

/** Why a document is in its state, in the user's words; the engine's own error comes first. */
const STATE_REASONS: Record<DocumentState, string> = {
  listed: 'Found in the folder; it is read when its turn comes.',
  queued: 'Waiting for its turn to be read.',
  indexing: 'Being read now.',
  indexed: 'Read and searchable.',
  needsPassword: 'It is encrypted: type its password to read it.',
  failed: 'Reading it failed.',
  quarantined: 'Reading it kept failing, so Quire stopped trying.',
  unsupported: 'Quire cannot read this kind of file.',
};

export function stateReason(doc: DocumentInfo): string {
  return doc.error ?? STATE_REASONS[doc.state];
}

/** Failed files the user can ask Quire to read again. */
export function canRetry(doc: DocumentInfo): boolean {
  return doc.state === 'failed' || doc.state === 'quarantined';
}

/** A file whose text Quire cannot read (an unsupported .ppt, a locked or failed file) has nothing to ask about. */
export function canAsk(doc: DocumentInfo): boolean {
  return !['unsupported', 'failed', 'quarantined', 'needsPassword'].includes(doc.state);
}

export type DocumentSort = 'name' | 'state' | 'pages' | 'size' | 'modified';
export type StateFilter = 'all' | 'problems' | 'waiting' | 'indexed';

export interface DocumentFilter {
  text: string;
  state: StateFilter;
  sort: DocumentSort;
}

export const NO_FILTER: DocumentFilter = { text: '', state: 'all', sort: 'name' };

/** States a file passes through on its way to being indexed. */
const PASSING_STATES: ReadonlySet<DocumentState> = new Set(['listed', 'queued', 'indexing']);

const STATE_GROUPS: Record<StateFilter, ReadonlySet<DocumentState> | null> = {
  all: null,
  problems: new Set(['failed', 'quarantined', 'needsPassword', 'unsupported']),
  waiting: PASSING_STATES,
  indexed: new Set(['indexed']),
};

const STATE_ORDER = Object.keys(STATE_LABELS) as DocumentState[];

/**
 * Whether a row spells out why it is in its state: for an error or a state the user must act on. A
 * file passing through listed, queued and indexing says so in its badge alone, so the row keeps its
 * height and a list of thousands changing state is not laid out again.
 */
export function showsReasonLine(doc: DocumentInfo): boolean {
  if (doc.state === 'indexed') return false;
  return doc.error !== null || !PASSING_STATES.has(doc.state);
}

const byName = (a: DocumentInfo, b: DocumentInfo) => compareLibraryPaths(a.relativePath, b.relativePath);

const SORTS: Record<DocumentSort, (a: DocumentInfo, b: DocumentInfo) => number> = {
  name: byName,
  // Problems first: they are what the user came to look at.
  state: (a, b) => STATE_ORDER.indexOf(b.state) - STATE_ORDER.indexOf(a.state) || byName(a, b),
  pages: (a, b) => (b.pages ?? -1) - (a.pages ?? -1) || byName(a, b),
  size: (a, b) => b.bytes - a.bytes || byName(a, b),
  modified: (a, b) => b.modifiedMs - a.modifiedMs || byName(a, b),
};

/**
 * The documents that match the filter's words (in the path inside the folder) and state, sorted.
 * `documents` come in library order, which is already the order by name: that sort is skipped, and
 * with no filter either the same array comes back, so a change to one file costs no pass over all.
 */
export function filterDocuments(
  documents: readonly DocumentInfo[],
  filter: DocumentFilter,
): readonly DocumentInfo[] {
  const inNameOrder = filter.sort === 'name';
  if (inNameOrder && !isFiltering(filter)) return documents;
  const words = filter.text.toLowerCase().split(/\s+/).filter(Boolean);
  const states = STATE_GROUPS[filter.state];
  const shown = documents.filter(
    (doc) =>
      (!states || states.has(doc.state)) &&
      words.every((word) => doc.relativePath.toLowerCase().includes(word)),
  );
  return inNameOrder ? shown : shown.sort(SORTS[filter.sort]);
}

export function isFiltering(filter: DocumentFilter): boolean {
  return filter.text.trim() !== '' || filter.state !== 'all';
}

const WORK_NAMES: Record<WorkKind, string> = {
  text: 'Text',
  ocr: 'OCR of scanned pages',
  images: 'Page images',
  pageVectors: 'Page vectors',
};

export interface WorkLineView {
  kind: WorkKind;
  label: string;
  /** "12 of 30 pages · 4.1 pages/s · about 5 s left". */
  detail: string;
  percent: number;
  /** The file this kind of work is on now. */
  current: string | null;
}

/** One line per kind of work; speed and time left only when measured and while work is left. */
export function describeWork(progress: IndexProgress): WorkLineView[] {
  return (progress.work ?? []).map((line) => {
    const left = line.pagesDone < line.pagesTotal;
    const parts = [`${line.pagesDone} of ${plural(line.pagesTotal, 'page')}`];
    if (left && !progress.paused) {
      if (line.pagesPerSecond > 0) parts.push(formatRate(line.pagesPerSecond, 'pages'));
      parts.push(formatEta(line.etaSeconds));
    }
    if (!left) parts.push('done');
    return {
      kind: line.kind,
      label: WORK_NAMES[line.kind],
      detail: parts.join(' · '),
      percent: percent(line.pagesDone, line.pagesTotal),
      current: left && !progress.paused ? line.currentPath : null,
    };
  });
}

/** The language label beside a document's state; null before its text is read. */
export function describeLanguage(
  language: string | null | undefined,
): { label: string; title: string } | null {
  if (language == null) return null;
  if (language === UNDETERMINED_LANGUAGE)
    return { label: 'Language unknown', title: 'Too little text to tell its language.' };
  const name = languageName(language) ?? language;
  return { label: name, title: `Its text reads as ${name}.` };
}
