import type { IncomingMessage, ServerResponse } from 'node:http';
import { PAGE_IMAGE_ROUTE, parsePageImagePath } from '../../shared/domain/pageImageAddress';
import { QuireError } from '../../shared/errors';
import type { Core } from '../createCore';
import { openPageImage } from '../pages/readPageImage';

/** Whether a request's path is a page image's (`/page-images/...`); the token was checked before. */
export function isPageImagePath(path: string): boolean {
  return path.startsWith(PAGE_IMAGE_ROUTE);
}

/**
 * `GET /page-images/<documentId>/<page>/<size>?v=<version>`: a page image from the one page-image
 * service. The token comes as the cookie the token-checked page load set (an <img> sends no header).
 * A malformed address is 400, a document or page the library does not hold 404.
 */
export async function servePageImage(
  core: Pick<Core, 'library' | 'ingestion' | 'index' | 'pageImages'>,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  const url = new URL(request.url ?? '/', 'http://localhost');
  // The raw path, not URL's decoded one: an escaped slash or dot is refused, never decoded into a path.
  const raw = (request.url ?? '').split('?')[0] ?? '';
  url.searchParams.delete('token');
  const address = raw.startsWith(PAGE_IMAGE_ROUTE)
    ? parsePageImagePath(raw.slice(PAGE_IMAGE_ROUTE.length), url.searchParams.toString())
    : null;
  if (!address) {
    response.writeHead(400, { 'Content-Type': 'text/plain' }).end('Not a page image address.');
    return;
  }
  try {
    const { bytes, contentType, image } = await openPageImage(
      core,
      address.documentId,
      address.page,
      address.size,
      address.version,
    );
    // A versioned address names one drawing for good; an unversioned one may change with a re-index.
    const current = address.version === image.version;
    response.writeHead(200, {
      'Content-Type': contentType,
      'Content-Length': String(bytes.byteLength),
      'Cache-Control': current ? 'private, max-age=31536000, immutable' : 'private, no-cache',
      ETag: `"${image.version}"`,
    });
    response.end(request.method === 'HEAD' ? undefined : bytes);
  } catch (error) {
    const { status, message } = statusOf(error);
    if (status === 500) throw error;
    response.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8' }).end(message);
  }
}

function statusOf(error: unknown): { status: number; message: string } {
  if (!(error instanceof QuireError)) return { status: 500, message: '' };
  if (error.code === 'not_found' || error.code === 'outside_library')
    return { status: 404, message: error.message };
  if (error.code === 'invalid_input') return { status: 400, message: error.message };
  return { status: 500, message: '' };
}
