import { create } from 'zustand';
import type { ErrorInfo } from '../../../../shared/errors';
import type { IndexProgress, LibraryChange, LibraryListing } from '../../../../shared/domain/library';
import type { CallResult } from '../../../../shared/ipc/contract';
import { FIRST_ROWS } from '../../../../shared/ipc/firstRows';
import { quire } from '../../ipc/client';
import { errorOf } from '../../lib/callResult';
import { afterNextPaint, beforeNextFrame } from '../../lib/afterPaint';
import { FreshnessGuard } from '../../lib/freshness';
import { applyLibraryChanges, inLibraryOrder, isNewerListing, withPage } from './libraryChange';
import { noteFirstListing } from './libraryShown';
import { takeServedFirstRows } from './servedFirstRows';

export interface LibraryState {
  snapshot: LibraryListing | null;
  progress: IndexProgress | null;
  loadError: string | null;
  /** Adds a folder; resolves to the error to show where the user typed, or null. */
  addFolder: (path: string) => Promise<ErrorInfo | null>;
  /** A folder removed moments ago that can still be put back, and until when. */
  undoable: { rootId: string; path: string; until: number } | null;
  /** Removes a folder; for a few seconds `undoRemove` can put it back. */
  removeFolder: (rootId: string) => Promise<ErrorInfo | null>;
  undoRemove: () => Promise<ErrorInfo | null>;
  /** Reads a failed file again. */
  retry: (documentId: string) => Promise<ErrorInfo | null>;
  unlock: (documentId: string, password: string, remember: boolean) => Promise<ErrorInfo | null>;
  pause: () => Promise<ErrorInfo | null>;
  resume: () => Promise<ErrorInfo | null>;
  cancel: () => Promise<ErrorInfo | null>;
}

const progressGuard = new FreshnessGuard();

/**
 * Changes and progress that came since the last frame. While files are read, events come many to a
 * frame; each drew the library again (about 15 ms at 10,000 files), so they are applied together,
 * once, before the next frame, and at once before a listing or page is taken.
 */
let pendingChanges: LibraryChange[] = [];
let pendingProgress: IndexProgress | null = null;
let cancelPendingFrame: (() => void) | null = null;

export const useLibraryStore = create<LibraryState>((set, get) => ({
  snapshot: null,
  undoable: null,
  progress: null,
  loadError: null,

  // The library shown is only ever what the engine sent (a listing, then its changes): a call that
  // changes it is answered after the engine has sent the change, so nothing is edited here; the
  // changes held for the next frame are applied as the answer comes (`changed`).
  addFolder: async (path) => errorOf(await changed(quire['library.addFolder']({ path }))),

  removeFolder: async (rootId) => {
    const path = get().snapshot?.roots.find((root) => root.id === rootId)?.path ?? '';
    const result = await changed(quire['library.removeFolder']({ rootId, undoable: true }));
    if (result.ok) {
      const until = result.value.undoUntil ? Date.parse(result.value.undoUntil) : null;
      set({ undoable: until ? { rootId, path, until } : null });
    }
    return errorOf(result);
  },

  undoRemove: async () => {
    const undoable = get().undoable;
    if (!undoable) return null;
    const result = await changed(quire['library.undoRemove']({ rootId: undoable.rootId }));
    set({ undoable: null });
    return errorOf(result);
  },

  retry: async (documentId) => errorOf(await changed(quire['library.retry']({ documentId }))),

  unlock: async (documentId, password, remember) =>
    errorOf(await changed(quire['library.unlock']({ documentId, password, remember }))),

  pause: async () => applyProgressCall(await quire['library.pause']({})),
  resume: async () => applyProgressCall(await quire['library.resume']({})),
  cancel: async () => applyProgressCall(await quire['library.cancel']({})),
}));

function applyProgressCall(result: Awaited<ReturnType<(typeof quire)['library.pause']>>): ErrorInfo | null {
  if (result.ok) {
    progressGuard.noteEvent();
    // Progress held for the next frame came before this answer, and is older than it.
    pendingProgress = null;
    useLibraryStore.setState({ progress: result.value });
  }
  return errorOf(result);
}

/** Rows of each later page: small enough that reading one never holds the window up for long. */
const PAGE_ROWS = 2000;
/** A listing being fetched; whether another is wanted once it is in; changes before any listing. */
let listingInFlight: Promise<void> | null = null;
let listAgain = false;
let changesBeforeListing: LibraryChange[] = [];

/** Lists the library; asked while a listing is on its way, it lists again after it (that one may be older). */
function fetchLibrary(): Promise<void> {
  if (listingInFlight) {
    listAgain = true;
    return listingInFlight;
  }
  listingInFlight = (async () => {
    do {
      listAgain = false;
      await listLibrary();
    } while (listAgain);
  })().finally(() => (listingInFlight = null));
  return listingInFlight;
}

async function listLibrary(): Promise<void> {
  const progressToken = progressGuard.begin();
  const progress = quire['library.progress']({});
  // A window with nothing shown, or only the first rows its page came with, lists in pages: the first
  // rows paint at once, and no page is big enough to hold up a frame. One that shows the whole
  // library (a reconnect) lists it whole.
  const held = useLibraryStore.getState().snapshot;
  if (held && held.omitted === undefined) {
    takeListing(await quire['library.list']({}));
    noteFirstListing();
  } else await listInPages(held);
  const progressResult = await progress;
  if (progressResult.ok && progressGuard.isFresh(progressToken))
    useLibraryStore.setState({ progress: progressResult.value });
}

/** Lists in pages, going on from `shown` (the first rows the page came with) when there is one. */
async function listInPages(shown: LibraryListing | null): Promise<void> {
  let page: CallResult<LibraryListing>;
  if (shown) page = { ok: true, value: shown };
  else {
    page = await quire['library.list']({ limit: FIRST_ROWS });
    takeListing(page);
    noteFirstListing();
  }
  // The first rows are painted before the next page is asked for: reading it would delay that paint.
  await afterNextPaint();
  while (page.ok && page.value.omitted !== undefined) {
    const after = page.value.documents.at(-1)?.path;
    if (!after) break;
    page = await quire['library.list']({ after, limit: PAGE_ROWS });
    applyPendingEvents();
    const held = useLibraryStore.getState().snapshot;
    // Something else replaced the first part meanwhile (a whole listing): nothing left to join.
    if (!held || held.omitted === undefined) return;
    // A page that failed or is of another revision: the library is listed whole (its error shown if it fails too).
    const joined = page.ok ? withPage(held, inLibraryOrder(page.value)) : null;
    if (!joined) return takeListing(await quire['library.list']({}));
    useLibraryStore.setState({ snapshot: joined });
  }
}

function takeListing(result: CallResult<LibraryListing>): void {
  // Events that came before this answer are older than it: they go first, as they came.
  applyPendingEvents();
  if (!result.ok) {
    useLibraryStore.setState({ loadError: result.error.message });
    return;
  }
  const held = useLibraryStore.getState().snapshot;
  if (!isNewerListing(held, result.value)) {
    // A whole listing older than the first part held, which changes have moved on: list it again.
    if (held?.omitted !== undefined && result.value.omitted === undefined) void fetchLibrary();
    return;
  }
  let listing: LibraryListing | null = inLibraryOrder(result.value);
  // Changes that arrived before any listing: those it already holds leave it as it is.
  if (changesBeforeListing.length > 0) listing = applyLibraryChanges(listing, changesBeforeListing);
  changesBeforeListing = [];
  if (listing) useLibraryStore.setState({ snapshot: listing, loadError: null });
  else void fetchLibrary();
}

function applyPendingEvents(): void {
  cancelPendingFrame?.();
  cancelPendingFrame = null;
  const changes = pendingChanges;
  const progress = pendingProgress;
  pendingChanges = [];
  pendingProgress = null;
  if (progress) useLibraryStore.setState({ progress });
  if (changes.length === 0) return;
  const held = useLibraryStore.getState().snapshot;
  if (!held) {
    // The listing on its way may or may not hold these changes: they are applied once it is here.
    changesBeforeListing.push(...changes);
    if (!listingInFlight) void fetchLibrary();
    return;
  }
  const next = applyLibraryChanges(held, changes);
  // A change was missed: the library is listed again, which holds these changes too.
  if (!next) return void fetchLibrary();
  if (next !== held) useLibraryStore.setState({ snapshot: next, loadError: null });
}

/** A call's answer, once the changes that came before it are applied. */
async function changed<T>(call: Promise<T>): Promise<T> {
  const result = await call;
  applyPendingEvents();
  return result;
}

function applyBeforeNextFrame(): void {
  cancelPendingFrame ??= beforeNextFrame(applyPendingEvents);
}

/**
 * Mirrors the engine's library: the first rows the page came with at once (before the window's first
 * render), a listing on every (re)connect, then its events.
 */
export function startLibrarySync(onConnected: (listener: () => void) => () => void): () => void {
  const served = takeServedFirstRows();
  if (served) {
    takeListing({ ok: true, value: served });
    noteFirstListing();
  }
  const stops = [
    quire.on('library.onChanged', (change) => {
      pendingChanges.push(change);
      applyBeforeNextFrame();
    }),
    quire.on('library.onProgress', (progress) => {
      progressGuard.noteEvent();
      pendingProgress = progress;
      applyBeforeNextFrame();
    }),
    onConnected(() => void fetchLibrary()),
  ];
  return () => {
    stops.forEach((stop) => stop());
    cancelPendingFrame?.();
    cancelPendingFrame = null;
  };
}

/** A document's page count, or null while unknown. */
export function useDocumentPageCount(documentId: string): number | null {
  return useLibraryStore(
    (state) => state.snapshot?.documents.find((doc) => doc.id === documentId)?.pages ?? null,
  );
}
