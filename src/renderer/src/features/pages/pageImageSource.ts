import type { PageImage } from '../../../../shared/domain/search';

/** The one place that turns a page image into what an <img> shows. */
export function pageImageSource(image: PageImage): string {
  return image.dataUrl;
}
