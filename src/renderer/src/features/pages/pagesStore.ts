import { create } from 'zustand';
import type { PageText, PageWords } from '../../../../shared/domain/pages';
import type { BoundingBox, PageImage } from '../../../../shared/domain/search';
import { quire } from '../../ipc/client';
import { withBoundedEntry } from '../../lib/boundedRecord';
import { pageKey } from './highlightBoxes';

export type PageSize = 'full' | 'thumbnail';

/** Full pages are large data URLs; keep a few for paging back and forth. */
const KEPT_FULL_PAGES = 12;
const KEPT_THUMBNAILS = 300;

export interface ViewerTarget {
  documentId: string;
  page: number;
  title: string;
  /** What to highlight, on the page it belongs to: the passage's boxes and the answer's sentence. */
  highlight: {
    page: number;
    boxes: BoundingBox[];
    claim?: string | null;
    passage?: string | null;
  } | null;
}

export interface PagesState {
  viewer: ViewerTarget | null;
  images: Record<string, PageImage>;
  /** Pages shown as formatted text because their image is missing, by the full page's key. */
  texts: Record<string, PageText>;
  errors: Record<string, string>;
  /** Words of full pages, by the full page's key; a string says why they are not known. */
  words: Record<string, PageWords | string>;
  openViewer: (target: ViewerTarget) => void;
  closeViewer: () => void;
  goToPage: (page: number) => void;
  load: (documentId: string, page: number, size: PageSize) => Promise<void>;
  loadWords: (documentId: string, page: number) => Promise<void>;
  /** The image's address answered with an error (its file vanished, say): shown, and loaded afresh on retry. */
  imageFailed: (documentId: string, page: number, size: PageSize) => void;
}

const inFlight = new Set<string>();

/**
 * The viewer's own reads (a full page's image or text, its words) under way, by flight key: those of a
 * page it no longer shows are cancelled, so paging quickly leaves the engine only the page in view.
 */
const viewerReads = new Map<string, { documentId: string; page: number; controller: AbortController }>();

function startViewerRead(flight: string, documentId: string, page: number): AbortSignal {
  const controller = new AbortController();
  viewerReads.set(flight, { documentId, page, controller });
  return controller.signal;
}

function cancelReadsNotShown(viewer: ViewerTarget | null): void {
  for (const [flight, read] of viewerReads) {
    if (viewer?.documentId === read.documentId && viewer.page === read.page) continue;
    viewerReads.delete(flight);
    read.controller.abort();
  }
}

const isCancelled = (result: { ok: boolean; error?: { code: string } }) =>
  !result.ok && result.error?.code === 'cancelled';

export const usePagesStore = create<PagesState>((set, get) => ({
  viewer: null,
  images: {},
  texts: {},
  errors: {},
  words: {},

  openViewer: (target) => {
    set({ viewer: target });
    cancelReadsNotShown(target);
  },
  closeViewer: () => {
    set({ viewer: null });
    cancelReadsNotShown(null);
  },
  goToPage: (page) => {
    set((state) => (state.viewer && page >= 1 ? { viewer: { ...state.viewer, page } } : {}));
    cancelReadsNotShown(get().viewer);
  },

  load: async (documentId, page, size) => {
    const key = pageKey(documentId, page, size);
    if (inFlight.has(key) || get().images[key] || get().texts[key]) return;
    inFlight.add(key);
    // Thumbnails are cheap and shown in lists: only the viewer's full page is let go when left.
    const signal = size === 'full' ? startViewerRead(key, documentId, page) : undefined;
    const options = signal ? { signal } : {};
    const result = await quire['pages.get']({ documentId, page, size }, options);
    // No image (not drawn yet, or it cannot be): pages Quire laid out are shown as formatted text.
    const text =
      !result.ok && !isCancelled(result) && size === 'full'
        ? await quire['pages.text']({ documentId, page }, options)
        : null;
    inFlight.delete(key);
    if (viewerReads.get(key)?.controller.signal === signal) viewerReads.delete(key);
    // A page the viewer left: nothing to keep, and it is asked again if shown again.
    if (isCancelled(result) || (text && isCancelled(text))) return;
    set((state) => {
      if (text?.ok) {
        const { [key]: _cleared, ...errors } = state.errors;
        return { texts: withBoundedEntry(state.texts, key, text.value, KEPT_FULL_PAGES), errors };
      }
      if (!result.ok) return { errors: { ...state.errors, [key]: result.error.message } };
      const { [key]: _cleared, ...errors } = state.errors;
      const limit = size === 'full' ? KEPT_FULL_PAGES : KEPT_THUMBNAILS;
      return { images: boundedBySize(state.images, key, result.value, size, limit), errors };
    });
  },

  imageFailed: (documentId, page, size) => {
    const key = pageKey(documentId, page, size);
    set((state) => {
      const { [key]: _failed, ...images } = state.images;
      return { images, errors: { ...state.errors, [key]: `The image of page ${page} could not be loaded.` } };
    });
  },

  loadWords: async (documentId, page) => {
    const key = pageKey(documentId, page, 'full');
    const flight = `words:${key}`;
    if (inFlight.has(flight) || get().words[key] !== undefined) return;
    inFlight.add(flight);
    const signal = startViewerRead(flight, documentId, page);
    const result = await quire['pages.words']({ documentId, page }, { signal });
    inFlight.delete(flight);
    if (viewerReads.get(flight)?.controller.signal === signal) viewerReads.delete(flight);
    if (isCancelled(result)) return;
    const value = result.ok ? result.value : result.error.message;
    set((state) => ({ words: withBoundedEntry(state.words, key, value, KEPT_FULL_PAGES) }));
  },
}));

/** Caps full pages and thumbnails separately so paging never evicts the chips' thumbnails. */
function boundedBySize(
  images: Record<string, PageImage>,
  key: string,
  image: PageImage,
  size: PageSize,
  limit: number,
): Record<string, PageImage> {
  const prefix = `${size}:`;
  const same: Record<string, PageImage> = {};
  const others: Record<string, PageImage> = {};
  for (const [existing, value] of Object.entries(images)) {
    if (existing.startsWith(prefix)) same[existing] = value;
    else others[existing] = value;
  }
  return { ...others, ...withBoundedEntry(same, key, image, limit) };
}
