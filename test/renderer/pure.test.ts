import { describe, expect, it } from 'vitest';
import type { DocumentState, IndexProgress, WorkKind } from '../../src/shared/domain/library';
import {
  formatBytes,
  formatEta,
  formatDuration,
  fileName,
  formatPageCount,
  percent,
} from '../../src/renderer/src/lib/format';
import { reconnectDelay } from '../../src/renderer/src/lib/backoff';
import { conversationLabels } from '../../src/renderer/src/features/chat/conversationLabels';
import { withBoundedEntry } from '../../src/renderer/src/lib/boundedRecord';
import { FreshnessGuard } from '../../src/renderer/src/lib/freshness';
import { splitAnswer, splitParagraphs } from '../../src/renderer/src/features/chat/answerSegments';
import { applyAgentEvent, emptyRun } from '../../src/renderer/src/features/chat/runReducer';
import { toHighlightRects } from '../../src/renderer/src/features/pages/highlightBoxes';
import { describeMemory } from '../../src/renderer/src/features/models/memoryBars';
import { upsertDownload } from '../../src/renderer/src/features/models/downloads';
import {
  countLibrary,
  describeProgress,
  progressHeadline,
  documentsByRoot,
  filterDocuments,
  NO_FILTER,
  showsReasonLine,
  summarizeStates,
} from '../../src/renderer/src/features/library/libraryView';
import { inLibraryOrder } from '../../src/renderer/src/features/library/libraryChange';
import {
  parseServedFirstRows,
  takeServedFirstRows,
} from '../../src/renderer/src/features/library/servedFirstRows';
import { encodeCall, parseServerMessage, PendingCalls } from '../../src/renderer/src/ipc/socketMessages';
import { takeSessionToken, socketUrl } from '../../src/renderer/src/ipc/sessionToken';
import { readStoredTheme } from '../../src/renderer/src/features/settings/theme';

describe('format', () => {
  it('formats bytes', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(1500)).toBe('1.5 KB');
    expect(formatBytes(16e9)).toBe('16 GB');
    // The engine writes 25.3 GB for these bytes: the app must not say 23.5.
    expect(formatBytes(25.3e9)).toBe('25.3 GB');
    expect(formatBytes(-1)).toBe('—');
  });
  it('formats eta', () => {
    expect(formatEta(null)).toBe('estimating time left');
    expect(formatEta(0.2)).toBe('almost done');
    expect(formatEta(44.2)).toBe('about 45 s left');
    expect(formatEta(180)).toBe('about 3 min left');
    expect(formatEta(3600 * 2 + 600)).toBe('about 2 h 10 min left');
    expect(formatEta(3600)).toBe('about 1 h left');
  });
  it('formats durations, names, counts', () => {
    expect(formatDuration(182)).toBe('182 ms');
    expect(formatDuration(1900)).toBe('1.9 s');
    expect(formatDuration(125_000)).toBe('2 min 5 s');
    expect(fileName('C:\\docs\\a.pdf')).toBe('a.pdf');
    expect(fileName('/x/y/b.pdf')).toBe('b.pdf');
    expect(formatPageCount(1)).toBe('1 page');
    expect(formatPageCount(14)).toBe('14 pages');
    expect(percent(5, 0)).toBe(0);
    expect(percent(15, 10)).toBe(100);
  });
});

describe('backoff, bounded record, freshness', () => {
  it('doubles up to the cap with jitter', () => {
    expect(reconnectDelay(0, { random: () => 1 })).toBe(500);
    expect(reconnectDelay(3, { random: () => 1 })).toBe(4000);
    expect(reconnectDelay(20, { random: () => 1 })).toBe(10_000);
    expect(reconnectDelay(1, { random: () => 0 })).toBe(750);
  });
  it('drops the oldest entries', () => {
    let record: Record<string, number> = {};
    for (const key of ['a', 'b', 'c', 'a']) record = withBoundedEntry(record, key, 1, 2);
    expect(Object.keys(record)).toEqual(['c', 'a']);
  });
  it('rejects a fetch that an event overtook', () => {
    const guard = new FreshnessGuard();
    const token = guard.begin();
    expect(guard.isFresh(token)).toBe(true);
    guard.noteEvent();
    expect(guard.isFresh(token)).toBe(false);
  });
});

const citation = (marker: number, page = 2) => ({
  marker,
  documentId: 'd',
  path: '/x/a.pdf',
  page,
  chunkId: null,
  snippet: '',
  boxes: [],
});

describe('answer and run', () => {
  it('splits markers', () => {
    expect(splitAnswer('A [1] and [2, 3].')).toEqual([
      { kind: 'text', text: 'A ' },
      { kind: 'marker', marker: 1 },
      { kind: 'text', text: ' and ' },
      { kind: 'marker', marker: 2 },
      { kind: 'marker', marker: 3 },
      { kind: 'text', text: '.' },
    ]);
    expect(splitAnswer('[x] no')).toEqual([{ kind: 'text', text: '[x] no' }]);
    expect(splitParagraphs('a\n\n\nb\nc\n')).toEqual(['a', 'b\nc']);
  });
  it('folds events', () => {
    const at = 1;
    let run = applyAgentEvent(undefined, { type: 'token', runId: 'r', at, text: 'Hel', attempt: 0 });
    run = applyAgentEvent(run, { type: 'token', runId: 'r', at, text: 'lo', attempt: 0 });
    expect(run.answer).toBe('Hello');
    run = applyAgentEvent(run, { type: 'reprompt', runId: 'r', at, problems: ['x'], remaining: 1 });
    expect(run.answer).toBe('');
    run = applyAgentEvent(run, { type: 'citation', runId: 'r', at, citation: citation(2) });
    run = applyAgentEvent(run, { type: 'citation', runId: 'r', at, citation: citation(1) });
    expect(run.citations.map((c) => c.marker)).toEqual([1, 2]);
    run = applyAgentEvent(run, {
      type: 'final',
      runId: 'r',
      at,
      answer: 'Done [1]',
      citations: [citation(1)],
      insufficiencies: ['gap'],
    });
    run = applyAgentEvent(run, { type: 'token', runId: 'r', at, text: 'late', attempt: 0 });
    expect(run.answer).toBe('Done [1]');
    run = applyAgentEvent(run, { type: 'complete', runId: 'r', at, status: 'answered', ms: 5, error: null });
    expect(run.status).toBe('answered');
    expect(run.insufficiencies).toEqual(['gap']);
    expect(applyAgentEvent(run, { type: 'status', runId: 'r', at, message: 'x' })).toBe(run);
    expect(emptyRun('q').status).toBe('running');
  });

  it('holds a plan for review while paused and clears it when the run goes on', () => {
    const at = 1;
    let run = applyAgentEvent(undefined, {
      type: 'plan_review',
      runId: 'r',
      at,
      subQuestions: ['What was revenue', 'how did margins change?'],
    });
    run = applyAgentEvent(run, { type: 'complete', runId: 'r', at, status: 'paused', ms: 3, error: null });
    expect(run).toMatchObject({
      status: 'paused',
      planReview: { subQuestions: ['What was revenue', 'how did margins change?'] },
    });
    run = applyAgentEvent(run, { type: 'status', runId: 'r', at, message: 'Researching the approved plan' });
    expect(run).toMatchObject({ status: 'running', planReview: null });
  });
});

describe('highlights, memory, downloads, library', () => {
  it('scales boxes by page size', () => {
    expect(
      toHighlightRects(
        [
          { x: 61.2, y: 79.2, width: 306, height: 79.2 },
          { x: 0, y: 0, width: 0, height: 5 },
        ],
        612,
        792,
      ),
    ).toEqual([{ leftPercent: 10, topPercent: 10, widthPercent: 50, heightPercent: 10 }]);
  });
  it('describes memory', () => {
    const view = describeMemory({
      totalBytes: 1000,
      availableBytes: 500,
      unifiedMemory: false,
      appHeadroomBytes: 100,
      freeForModelsBytes: -5,
      entries: [
        {
          id: 'a',
          label: 'a',
          roles: [],
          loaded: true,
          weightsBytes: 200,
          kvCacheBytes: 50,
          external: false,
        },
      ],
      notes: [],
    });
    expect(view.rows[0]).toMatchObject({ weightsPercent: 20, kvCachePercent: 5 });
    expect(view).toMatchObject({ modelsBytes: 250, headroomPercent: 10, limitPercent: 90, overBudget: true });
  });
  it('upserts downloads', () => {
    const d = {
      id: '1',
      model: 'm',
      state: 'queued' as const,
      source: 'file' as const,
      bytesDone: 0,
      bytesTotal: null,
      bytesPerSecond: 0,
      etaSeconds: null,
      error: null,
    };
    expect(upsertDownload([d], { ...d, state: 'done' })).toEqual([{ ...d, state: 'done' }]);
    expect(upsertDownload([d], { ...d, id: '2' })).toHaveLength(2);
  });
  it('groups and summarises documents and progress', () => {
    const doc = (id: string, rootId: string, relativePath: string, state: 'indexed' | 'failed') => ({
      id,
      rootId,
      path: '/' + relativePath,
      relativePath,
      kind: 'pdf' as const,
      bytes: 1,
      modifiedMs: 0,
      pages: 1,
      state,
      error: null,
    });
    // A listing out of library order (another locale's collation) is put in order once, on arrival.
    const listing = inLibraryOrder({
      roots: [],
      skipped: [],
      scanning: false,
      revision: 0,
      documents: [
        doc('1', 'a', 'b10.pdf', 'indexed'),
        doc('2', 'a', 'b9.pdf', 'failed'),
        doc('3', 'c', 'x.pdf', 'indexed'),
      ],
    });
    expect(inLibraryOrder(listing)).toBe(listing);
    const groups = documentsByRoot(listing.documents);
    expect(groups.get('a')!.map((d) => d.relativePath)).toEqual(['b9.pdf', 'b10.pdf']);
    // No filter: the group itself, not a sorted copy; a filter or another sort makes one.
    expect(filterDocuments(groups.get('a')!, NO_FILTER)).toBe(groups.get('a'));
    expect(filterDocuments(groups.get('a')!, { ...NO_FILTER, state: 'problems' }).map((d) => d.id)).toEqual([
      '2',
    ]);
    expect(filterDocuments(groups.get('a')!, { ...NO_FILTER, sort: 'state' }).map((d) => d.id)).toEqual([
      '2',
      '1',
    ]);
    expect(summarizeStates(groups.get('a')!)).toBe('1 indexed · 1 failed');
    const view = describeProgress({
      filesDone: 1,
      filesTotal: 4,
      pagesDone: 10,
      pagesTotal: 40,
      pagesPerSecond: 2.5,
      etaSeconds: 12,
      pagesToDraw: 0,
      pagesToRecognize: 0,
      paused: false,
      stopped: null,
      currentPath: null,
      work: [],
    });
    expect(view).toMatchObject({
      percent: 25,
      files: '1 of 4 files',
      pages: '10 of 40 pages',
      rate: '2.5 pages/s',
      eta: 'about 12 s left',
      drawing: null,
      finished: false,
    });
    expect(
      describeProgress({
        filesDone: 4,
        filesTotal: 4,
        pagesDone: 0,
        pagesTotal: 0,
        pagesPerSecond: 0,
        etaSeconds: null,
        pagesToDraw: 30,
        pagesToRecognize: 0,
        paused: false,
        stopped: null,
        currentPath: null,
        work: [],
      }),
    ).toMatchObject({
      percent: 100,
      pages: null,
      eta: null,
      drawing: '30 pages left to draw',
      finished: true,
    });
    // A full disk stopped indexing: the card says why, and shows no estimate.
    const full = 'The disk is full: 3 MB free, 40 MB needed in /data. Indexing stopped with 3 files to go.';
    expect(
      describeProgress({
        filesDone: 1,
        filesTotal: 4,
        pagesDone: 10,
        pagesTotal: 40,
        pagesPerSecond: 2.5,
        etaSeconds: 12,
        pagesToDraw: 0,
        pagesToRecognize: 0,
        paused: true,
        stopped: full,
        currentPath: null,
        work: [],
      }),
    ).toMatchObject({ paused: true, stopped: full, eta: null, rate: null });
  });

  it('headlines only what holds, with files counted over the whole library', () => {
    const progress = (over: Partial<IndexProgress>): IndexProgress => ({
      filesDone: 4,
      filesTotal: 4,
      pagesDone: 40,
      pagesTotal: 40,
      pagesPerSecond: 2,
      etaSeconds: 0,
      pagesToDraw: 0,
      pagesToRecognize: 0,
      paused: false,
      stopped: null,
      currentPath: null,
      work: [],
      ...over,
    });
    const line = (kind: WorkKind, pagesDone: number, pagesTotal: number) => ({
      kind,
      pagesDone,
      pagesTotal,
      pagesPerSecond: 0,
      etaSeconds: null,
      currentPath: null,
    });
    const files = (states: DocumentState[]) =>
      countLibrary(
        states.map((state, i) => ({
          id: String(i),
          rootId: i < 12 ? 'first' : 'second',
          path: `/f${i}.pdf`,
          relativePath: `f${i}.pdf`,
          kind: 'pdf' as const,
          bytes: 1,
          modifiedMs: 0,
          pages: 1,
          state,
          error: state === 'failed' ? 'Broken.' : null,
        })),
      );
    const allIndexed = files(Array<DocumentState>(16).fill('indexed'));
    // The text is in, OCR has not started and page images are a tenth drawn: not "everything".
    const scanning = progress({
      pagesToRecognize: 6,
      pagesToDraw: 36,
      work: [line('text', 40, 40), line('ocr', 0, 6), line('images', 4, 40)],
    });
    expect(progressHeadline(scanning, allIndexed)).toBe('Text searchable; OCR 0 of 6; page images 4 of 40');
    // Three files failed: the library is not "indexed".
    const failed = files([...Array<DocumentState>(13).fill('indexed'), 'failed', 'failed', 'quarantined']);
    expect(progressHeadline(progress({}), failed)).toBe('3 files failed');
    expect(describeProgress(progress({}), failed).files).toBe('16 of 16 files');
    // A second folder of 4 in a library of 16: the card counts the library, not the run.
    expect(describeProgress(progress({}), allIndexed).files).toBe('16 of 16 files');
    expect(progressHeadline(progress({}), allIndexed)).toBe('Everything is indexed');
    const midway = files([...Array<DocumentState>(14).fill('indexed'), 'queued', 'indexing']);
    expect(describeProgress(progress({ filesDone: 2 }), midway).files).toBe('14 of 16 files');
    expect(progressHeadline(progress({ stopped: 'The disk is full.' }), midway)).toBe('Indexing stopped');
  });

  it('spells out a reason for errors and states to act on, not for a file passing through the queue', () => {
    const row = (state: DocumentState, error: string | null = null) => ({
      id: 'a',
      rootId: 'r',
      path: '/a.pdf',
      relativePath: 'a.pdf',
      kind: 'pdf' as const,
      bytes: 1,
      modifiedMs: 0,
      pages: 1,
      state,
      error,
    });
    const shown = (['listed', 'queued', 'indexing', 'indexed', 'failed', 'needsPassword'] as const).map(
      (state) => showsReasonLine(row(state)),
    );
    expect(shown).toEqual([false, false, false, false, true, true]);
    // A file queued again after a failed attempt still says what went wrong.
    expect(showsReasonLine(row('queued', 'The file was busy.'))).toBe(true);
  });
});

describe('wire format and token', () => {
  it('parses server messages', () => {
    expect(JSON.parse(encodeCall(3, 'library.list', {}))).toEqual({
      type: 'call',
      id: 3,
      name: 'library.list',
      input: {},
    });
    expect(parseServerMessage('{"type":"result","id":3,"result":{"ok":true,"value":1}}')).toEqual({
      type: 'result',
      id: 3,
      result: { ok: true, value: 1 },
    });
    expect(
      parseServerMessage(
        '{"type":"result","id":3,"result":{"ok":false,"error":{"code":"weird","message":"m"}}}',
      ),
    ).toEqual({ type: 'result', id: 3, result: { ok: false, error: { code: 'internal', message: 'm' } } });
    expect(parseServerMessage('{"type":"event","name":"x","payload":null}')).toEqual({
      type: 'event',
      name: 'x',
      payload: null,
    });
    for (const bad of [
      'nope',
      '[]',
      '{"type":"result","id":"1","result":{"ok":true}}',
      '{"type":"result","id":1,"result":{"ok":false}}',
      5,
    ])
      expect(parseServerMessage(bad)).toBeNull();
  });
  it('settles pending calls', async () => {
    const pending = new PendingCalls();
    const a = pending.open();
    const b = pending.open();
    expect(pending.settle(a.id, { ok: true, value: 1 })).toBe(true);
    expect(pending.settle(a.id, { ok: true, value: 1 })).toBe(false);
    pending.settleAll({ ok: false, error: { code: 'internal', message: 'lost' } });
    expect(await a.result).toEqual({ ok: true, value: 1 });
    expect(await b.result).toMatchObject({ ok: false });
    expect(pending.size).toBe(0);
  });
  it('takes the token from the URL once and keeps it', () => {
    const store = new Map<string, string>();
    const replaced: string[] = [];
    const env = (href: string) => ({
      location: { href },
      history: {
        state: null,
        replaceState: (_s: unknown, _t: string, url?: string | URL | null) => {
          replaced.push(String(url));
        },
      },
      sessionStorage: {
        getItem: (k: string) => store.get(k) ?? null,
        setItem: (k: string, v: string) => void store.set(k, v),
      },
    });
    expect(takeSessionToken(env('http://127.0.0.1:5/?token=abc&x=1#h'))).toBe('abc');
    expect(replaced).toEqual(['/?x=1#h']);
    expect(takeSessionToken(env('http://127.0.0.1:5/'))).toBe('abc');
    expect(socketUrl({ protocol: 'http:', host: '127.0.0.1:5' }, 'a b')).toBe(
      'ws://127.0.0.1:5/ws?token=a%20b',
    );
    expect(socketUrl({ protocol: 'https:', host: 'h' }, null)).toBe('wss://h/ws');
  });
  it('takes the first rows the served page holds once, and only a listing', () => {
    const listing = { roots: [], documents: [], skipped: [], scanning: false, revision: 4, omitted: 9 };
    const text = JSON.stringify({ ok: true, value: listing });
    let removed = 0;
    const block = { textContent: text, remove: () => removed++ };
    const page = {
      getElementById: (id: string) => (id === 'quire-first-rows' && removed === 0 ? block : null),
    };
    expect(takeServedFirstRows(page as unknown as Document)).toEqual(listing);
    expect(removed).toBe(1);
    expect(takeServedFirstRows(page as unknown as Document)).toBeNull();
    for (const bad of [
      null,
      '',
      '{',
      'null',
      JSON.stringify({ ok: false, error: { code: 'internal', message: 'no' } }),
      JSON.stringify({ ok: true, value: { ...listing, documents: null } }),
      JSON.stringify({ ok: true, value: { ...listing, revision: '4' } }),
      JSON.stringify({ ok: true }),
    ]) {
      expect(parseServedFirstRows(bad), String(bad)).toBeNull();
    }
  });

  it('reads a stored theme defensively', () => {
    expect(readStoredTheme({ getItem: () => 'dark' })).toBe('dark');
    expect(readStoredTheme({ getItem: () => 'purple' })).toBe('system');
    expect(
      readStoredTheme({
        getItem: () => {
          throw new Error('denied');
        },
      }),
    ).toBe('system');
  });
});

describe('conversation labels', () => {
  it('tells apart conversations that began with the same question', () => {
    const labels = conversationLabels([
      { id: 'a', title: 'What is the margin?', createdAt: Date.UTC(2026, 2, 1, 9), turns: 1 },
      { id: 'b', title: 'What is the margin?', createdAt: Date.UTC(2026, 2, 2, 9), turns: 3 },
      { id: 'c', title: 'Who signed?', createdAt: Date.UTC(2026, 2, 3, 9), turns: 1 },
    ]);
    expect(new Set(labels.values()).size).toBe(3);
    expect(labels.get('a')).toMatch(/^What is the margin\? · .+ · 1 question$/);
    expect(labels.get('b')).toMatch(/· 3 questions$/);
    expect(labels.get('c')).toBe('Who signed? · 1 question');
  });
});
