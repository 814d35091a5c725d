import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type ReactElement } from 'react';

/** Lists this short are rendered whole: windowing would only get in the way of find-in-page. */
const WINDOW_FROM = 200;
/** Rows kept rendered above and below the visible part, in pixels, so a fast scroll shows no gap. */
const OVERSCAN_PX = 600;

interface WindowedListProps<T> {
  items: readonly T[];
  keyOf: (item: T) => string;
  /** One `<li>` per item; it must carry `data-window-key={keyOf(item)}` so its height can be measured. */
  renderItem: (item: T) => ReactElement;
  /** A row's height before it has been drawn once. */
  estimatedHeight: number;
  /** More rows are on their way (a listing in pages): windowed from the start, so the first paint draws only what shows. */
  growing?: boolean;
  className?: string;
  id?: string;
  testId?: string;
}

function scrollParentOf(element: HTMLElement): HTMLElement | null {
  for (let node = element.parentElement; node; node = node.parentElement) {
    const { overflowY } = getComputedStyle(node);
    if (overflowY === 'auto' || overflowY === 'scroll') return node;
  }
  return null;
}

/** The first index whose row ends below `y` (offsets[i] is where row i starts; offsets has n + 1 entries). */
function firstEndingBelow(offsets: Float64Array, y: number): number {
  let low = 0;
  let high = offsets.length - 2;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (offsets[middle + 1]! > y) high = middle;
    else low = middle + 1;
  }
  return Math.max(0, low);
}

/**
 * A list that draws only the rows near the visible part of its scrolling parent, so a library of
 * thousands of files paints at once and stays smooth while it changes. Rows may differ in height:
 * each is measured once drawn, and the space of the rows not drawn is kept as padding.
 */
export function WindowedList<T>(props: WindowedListProps<T>) {
  const { items, keyOf, renderItem, estimatedHeight, growing = false, className, id, testId } = props;
  const listRef = useRef<HTMLUListElement>(null);
  const [heights, setHeights] = useState<ReadonlyMap<string, number>>(() => new Map());
  // Until the scrolling parent is measured: the rows a window of this height can show, no more, so
  // the first paint draws only those (the overscan comes with the first measure, a frame later).
  const [view, setView] = useState(() => ({ top: 0, bottom: window.innerHeight }));
  const windowed = growing || items.length > WINDOW_FROM;

  // Where each row starts (n + 1 entries), in one typed array: at 10,000 rows an array of numbers
  // rebuilt on every change of the list was a good part of what the collector then had to sweep.
  const offsets = useMemo(() => {
    const starts = new Float64Array(windowed ? items.length + 1 : 1);
    if (!windowed) return starts;
    for (let i = 0; i < items.length; i++) {
      starts[i + 1] = starts[i]! + (heights.get(keyOf(items[i]!)) ?? estimatedHeight);
    }
    return starts;
  }, [windowed, items, heights, keyOf, estimatedHeight]);

  const update = useCallback(() => {
    const list = listRef.current;
    const parent = list && scrollParentOf(list);
    if (!list || !parent) return;
    const top = parent.getBoundingClientRect().top - list.getBoundingClientRect().top;
    const next = { top: top - OVERSCAN_PX, bottom: top + parent.clientHeight + OVERSCAN_PX };
    setView((current) =>
      Math.abs(current.top - next.top) < 1 && Math.abs(current.bottom - next.bottom) < 1 ? current : next,
    );
  }, []);

  useEffect(() => {
    if (!windowed) return;
    const list = listRef.current;
    const parent = list && scrollParentOf(list);
    if (!parent) return;
    let frame = 0;
    const schedule = () => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(update);
    };
    parent.addEventListener('scroll', schedule, { passive: true });
    const resized = new ResizeObserver(schedule);
    resized.observe(parent);
    // Measured in the next frame rather than now: measuring here would lay the page out and draw
    // the list again before its first paint.
    schedule();
    return () => {
      cancelAnimationFrame(frame);
      parent.removeEventListener('scroll', schedule);
      resized.disconnect();
    };
  }, [windowed, update]);

  // Rows are measured as they are drawn and whenever they change size (an error line, the unlock form).
  const rowObserver = useRef<ResizeObserver | null>(null);
  const observed = useRef(new Set<Element>());
  useLayoutEffect(() => {
    if (!windowed) return;
    const observer = new ResizeObserver((entries) => {
      const measured: Array<[string, number]> = [];
      for (const entry of entries) {
        const row = entry.target as HTMLElement;
        const key = row.dataset.windowKey;
        if (key !== undefined && row.offsetHeight > 0) measured.push([key, row.offsetHeight]);
      }
      setHeights((current) =>
        measured.every(([key, height]) => current.get(key) === height)
          ? current
          : new Map([...current, ...measured]),
      );
    });
    rowObserver.current = observer;
    const rows = observed.current;
    return () => {
      observer.disconnect();
      rows.clear();
      rowObserver.current = null;
    };
  }, [windowed]);
  useLayoutEffect(() => {
    const list = listRef.current;
    const observer = rowObserver.current;
    if (!list || !observer) return;
    const drawn = new Set<Element>(list.children);
    for (const row of observed.current) {
      if (!drawn.has(row)) {
        observer.unobserve(row);
        observed.current.delete(row);
      }
    }
    for (const row of drawn) {
      if (!observed.current.has(row)) {
        observer.observe(row);
        observed.current.add(row);
      }
    }
  });

  if (!windowed) {
    return (
      <ul ref={listRef} className={className} id={id} data-testid={testId}>
        {items.map(renderItem)}
      </ul>
    );
  }
  const first = firstEndingBelow(offsets, view.top);
  let last = first;
  while (last < items.length && offsets[last]! < view.bottom) last++;
  const total = offsets.at(-1)!;
  return (
    <ul
      ref={listRef}
      className={className}
      id={id}
      data-testid={testId}
      data-windowed="true"
      style={{ paddingTop: offsets[first], paddingBottom: total - offsets[last]! }}
    >
      {items.slice(first, last).map(renderItem)}
    </ul>
  );
}
