import { useEffect } from 'react';
import { pageKey } from './highlightBoxes';
import { pageImageSource } from './pageImageSource';
import { usePagesStore } from './pagesStore';
import './pages.css';

interface PageThumbnailProps {
  documentId: string;
  page: number;
  alt: string;
}

export function PageThumbnail({ documentId, page, alt }: PageThumbnailProps) {
  const key = pageKey(documentId, page, 'thumbnail');
  const image = usePagesStore((state) => state.images[key]);
  const failed = usePagesStore((state) => state.errors[key] !== undefined);
  const load = usePagesStore((state) => state.load);
  const imageFailed = usePagesStore((state) => state.imageFailed);

  useEffect(() => {
    void load(documentId, page, 'thumbnail');
  }, [documentId, page, load]);

  if (image)
    return (
      <img
        className="thumbnail"
        src={pageImageSource(image)}
        alt={alt}
        loading="lazy"
        decoding="async"
        onError={() => imageFailed(documentId, page, 'thumbnail')}
      />
    );
  return (
    <span
      className={`thumbnail thumbnail--placeholder${failed ? ' thumbnail--failed' : ''}`}
      aria-hidden="true"
    />
  );
}
