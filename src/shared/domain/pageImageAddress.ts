/*
 * Where a page image is fetched from: the same `<documentId>/<page>/<size>?v=<version>` in the desktop
 * app's own scheme and under `quire serve`'s route. Built here for the renderer, parsed here for the
 * scheme handler and the HTTP route, so the two doors accept exactly the same addresses.
 */

/** The desktop app's scheme: `quire-page://image/<documentId>/<page>/<size>?v=<version>`. */
export const PAGE_IMAGE_SCHEME = 'quire-page';
export const PAGE_IMAGE_SCHEME_BASE = `${PAGE_IMAGE_SCHEME}://image/`;
/** `quire serve`'s route: `/page-images/<documentId>/<page>/<size>?v=<version>`. */
export const PAGE_IMAGE_ROUTE = '/page-images/';

export type PageImageSize = 'full' | 'thumbnail';

export interface PageImageAddress {
  documentId: string;
  page: number;
  size: PageImageSize;
  /** Which drawing of the page (a digest of its stored image): a new drawing gets a new address. */
  version?: string;
}

/** Document ids are `doc_<hex>`; nothing with a slash, a dot or an escape can name one. */
const DOCUMENT_ID = /^[A-Za-z0-9_-]{1,200}$/;
const PAGE = /^[1-9][0-9]{0,8}$/;
/**
 * The largest page number an address or a request may carry: a bound on its form only. Whether the
 * page exists is the document's own page count's to say (readPageImage), however long the file.
 */
export const LARGEST_PAGE_NUMBER = 999_999_999;
const VERSION = /^[0-9a-f]{8,64}$/;

/** The address's path below the scheme's base or the route, with its version as the query. */
export function pageImagePath(address: PageImageAddress): string {
  const path = `${address.documentId}/${address.page}/${address.size}`;
  return address.version ? `${path}?v=${address.version}` : path;
}

/**
 * The address named by a path below the base (`doc_1/3/full`) and its query (`?v=...` or empty), or
 * null when any part is not exactly what `pageImagePath` writes.
 */
export function parsePageImagePath(path: string, query: string): PageImageAddress | null {
  const parts = path.split('/');
  if (parts.length !== 3) return null;
  const [documentId = '', pageText = '', size = ''] = parts;
  if (!DOCUMENT_ID.test(documentId) || !PAGE.test(pageText)) return null;
  const page = Number(pageText);
  if (page > LARGEST_PAGE_NUMBER || (size !== 'full' && size !== 'thumbnail')) return null;
  const params = new URLSearchParams(query);
  for (const key of params.keys()) if (key !== 'v') return null;
  const version = params.get('v');
  if (version !== null && !VERSION.test(version)) return null;
  return { documentId, page, size, ...(version !== null ? { version } : {}) };
}
