import {
  PAGE_IMAGE_ROUTE,
  PAGE_IMAGE_SCHEME_BASE,
  pageImagePath,
} from '../../../../shared/domain/pageImageAddress';
import type { PageImage } from '../../../../shared/domain/search';

/**
 * The one place that turns a page image into what an <img> shows: the desktop app's own scheme, or
 * the route of the `quire serve` that served this page (its token travels as the page's cookie).
 */
export function pageImageSource(image: PageImage, inDesktop: boolean = window.quire !== undefined): string {
  const path = pageImagePath({
    documentId: image.documentId,
    page: image.page,
    size: image.size,
    version: image.version,
  });
  return inDesktop ? `${PAGE_IMAGE_SCHEME_BASE}${path}` : `${PAGE_IMAGE_ROUTE}${path}`;
}
