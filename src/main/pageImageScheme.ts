import { protocol } from 'electron';
import { openPageImage, type Core } from '../core/desktop';
import { PAGE_IMAGE_SCHEME } from '../shared/domain/pageImageAddress';
import { ownPageOrigins, pageImageResponder } from './pageImageRequests';

/**
 * Before the app is ready: the page-image scheme is standard (its URLs parse like http's, with a host
 * and a path) and secure (a page may load it without mixed-content rules). It does not bypass the CSP
 * (img-src names it) and offers no fetch, CORS or service workers: an <img> is its only client.
 */
export function registerPageImageScheme(): void {
  protocol.registerSchemesAsPrivileged([
    { scheme: PAGE_IMAGE_SCHEME, privileges: { standard: true, secure: true } },
  ]);
}

/** After ready: serves page images from core's page-image service to our own page. */
export function servePageImages(core: Core, devServerUrl?: string): () => void {
  const respond = pageImageResponder(async (address) => {
    const { bytes, contentType, image } = await openPageImage(
      core,
      address.documentId,
      address.page,
      address.size,
      address.version,
    );
    return { bytes, contentType, version: image.version };
  }, ownPageOrigins(devServerUrl));
  protocol.handle(PAGE_IMAGE_SCHEME, (request) =>
    respond({
      url: request.url,
      method: request.method,
      initiatorOrigin: (request as { initiatorOrigin?: string }).initiatorOrigin,
    }),
  );
  return () => protocol.unhandle(PAGE_IMAGE_SCHEME);
}
