import { useEffect, useRef, useState } from 'react';
import { PageThumbnail } from './PageThumbnail';

interface ThumbnailStripProps {
  documentId: string;
  pageCount: number;
  current: number;
  onPick: (page: number) => void;
}

/** Pages drawn around the current one; a long document shows a window of them, not thousands. */
const WINDOW = 120;

/** Every page of the document as a small picture; a thumbnail loads only once it scrolls into view. */
export function ThumbnailStrip({ documentId, pageCount, current, onPick }: ThumbnailStripProps) {
  const first = Math.max(1, Math.min(current - WINDOW / 2, pageCount - WINDOW + 1));
  const last = Math.min(pageCount, first + WINDOW - 1);
  const pages = Array.from({ length: last - first + 1 }, (_, index) => first + index);
  const listRef = useRef<HTMLOListElement>(null);

  useEffect(() => {
    listRef.current
      ?.querySelector('[aria-current="page"]')
      ?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }, [current]);

  return (
    <nav className="thumbnail-strip" aria-label="Pages" data-testid="thumbnail-strip">
      <ol ref={listRef}>
        {pages.map((page) => (
          <li key={page}>
            <button
              type="button"
              className="thumbnail-strip__page"
              aria-label={`Page ${page}`}
              aria-current={page === current ? 'page' : undefined}
              data-testid="thumbnail"
              onClick={() => onPick(page)}
            >
              <LazyThumbnail documentId={documentId} page={page} />
              <span className="thumbnail-strip__number" aria-hidden="true">
                {page}
              </span>
            </button>
          </li>
        ))}
      </ol>
    </nav>
  );
}

function LazyThumbnail({ documentId, page }: { documentId: string; page: number }) {
  const [visible, setVisible] = useState(false);
  const ref = useRef<HTMLSpanElement>(null);
  useEffect(() => {
    const element = ref.current;
    if (!element || visible) return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) setVisible(true);
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [visible]);
  return (
    <span ref={ref} className="thumbnail-strip__picture">
      {visible ? (
        <PageThumbnail documentId={documentId} page={page} alt="" />
      ) : (
        <span className="thumbnail thumbnail--placeholder" aria-hidden="true" />
      )}
    </span>
  );
}
