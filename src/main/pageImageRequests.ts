/*
 * The checks behind the app's page-image scheme, apart from Electron so a test can run them: which
 * requests are answered, with what. Registering the scheme is pageImageScheme.ts.
 */
import { PAGE_IMAGE_SCHEME_BASE, parsePageImagePath } from '../shared/domain/pageImageAddress';
import type { PageImageAddress } from '../shared/domain/pageImageAddress';
import { QuireError } from '../shared/errors';

/** What the handler reads of Electron's request: the URL, the method, and who asked. */
export interface PageImageRequest {
  url: string;
  method: string;
  /**
   * The origin of the page that made the request, as Chromium sets it (the page cannot forge it);
   * absent for requests the browser started itself.
   */
  initiatorOrigin?: string | undefined;
}

export type OpenPageImage = (
  address: PageImageAddress,
) => Promise<{ bytes: Uint8Array; contentType: string; version: string }>;

/**
 * The origins our own page makes requests from: the dev server's exact origin in development; in the
 * packaged app the built index.html, a file: page, whose origin Chromium gives as `file://` or, where
 * it treats file documents as opaque, `null`. Nothing else runs in this session: the one window
 * opens no other windows, never navigates away, refuses webviews, and its CSP loads no frames.
 */
export function ownPageOrigins(devServerUrl?: string): (origin: string | undefined) => boolean {
  if (devServerUrl) {
    const dev = new URL(devServerUrl).origin;
    return (origin) => origin === dev;
  }
  return (origin) => origin === 'file://' || origin === 'null';
}

function plain(status: number, message: string): Response {
  return new Response(message, {
    status,
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff' },
  });
}

/** Answers `quire-page://image/<documentId>/<page>/<size>?v=<version>` for our own page only. */
export function pageImageResponder(
  open: OpenPageImage,
  isOwnPage: (origin: string | undefined) => boolean,
): (request: PageImageRequest) => Promise<Response> {
  return async (request) => {
    if (!isOwnPage(request.initiatorOrigin)) return plain(403, 'Only Quire’s window may load page images.');
    if (request.method !== 'GET' && request.method !== 'HEAD') return plain(405, 'Only GET is served.');
    if (!request.url.startsWith(PAGE_IMAGE_SCHEME_BASE)) return plain(400, 'Not a page image address.');
    const [path = '', query = '', ...rest] = request.url.slice(PAGE_IMAGE_SCHEME_BASE.length).split('?');
    const address = rest.length === 0 ? parsePageImagePath(path.split('#')[0] ?? '', query) : null;
    if (!address) return plain(400, 'Not a page image address.');
    try {
      const { bytes, contentType, version } = await open(address);
      return new Response(request.method === 'HEAD' ? null : new Blob([new Uint8Array(bytes)]), {
        status: 200,
        headers: {
          'Content-Type': contentType,
          'Content-Length': String(bytes.byteLength),
          'Cache-Control':
            address.version === version ? 'private, max-age=31536000, immutable' : 'private, no-cache',
          'X-Content-Type-Options': 'nosniff',
        },
      });
    } catch (error) {
      if (error instanceof QuireError && (error.code === 'not_found' || error.code === 'outside_library'))
        return plain(404, error.message);
      if (error instanceof QuireError && error.code === 'invalid_input') return plain(400, error.message);
      return plain(500, 'The page image could not be read.');
    }
  };
}
