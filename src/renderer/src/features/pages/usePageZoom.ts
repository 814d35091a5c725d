import { useCallback, useEffect, useLayoutEffect, useRef, useState, type RefObject } from 'react';

/** Zoom is a multiple of "fit width": 1 shows the page as wide as the viewer. */
export const ZOOM_STEPS = [0.5, 0.67, 0.8, 1, 1.25, 1.5, 2, 3, 4] as const;
const MIN_ZOOM = 0.25;
const MAX_ZOOM = 5;

export function clampZoom(scale: number): number {
  return Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, scale));
}

/** The next step up or down from `scale`, so buttons and keys land on round numbers. */
export function steppedZoom(scale: number, direction: 1 | -1): number {
  const steps = direction > 0 ? ZOOM_STEPS : [...ZOOM_STEPS].reverse();
  const next = steps.find((step) => (direction > 0 ? step > scale + 0.001 : step < scale - 0.001));
  return next ?? clampZoom(direction > 0 ? scale * 1.25 : scale / 1.25);
}

export interface PageZoom {
  scale: number;
  /** Inner width of the stage in pixels: the page's width at scale 1. */
  fitWidth: number;
  zoomIn: () => void;
  zoomOut: () => void;
  fitToWidth: () => void;
}

/**
 * Zoom and pan for the page stage: buttons and keys step the zoom, Ctrl+wheel and trackpad or touch
 * pinches scale it smoothly, dragging the page's margins pans it. The point under the centre stays put.
 */
export function usePageZoom(stageRef: RefObject<HTMLElement | null>): PageZoom {
  const [scale, setScale] = useState(1);
  const [fitWidth, setFitWidth] = useState(0);
  const previous = useRef(1);

  useEffect(() => {
    const stage = stageRef.current;
    if (!stage) return;
    const measure = () => {
      const style = getComputedStyle(stage);
      const padding = parseFloat(style.paddingLeft) + parseFloat(style.paddingRight);
      setFitWidth(Math.max(0, stage.clientWidth - padding));
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(stage);
    return () => observer.disconnect();
  }, [stageRef]);

  // Keeps the point at the centre of the stage where it was when the scale changes.
  useLayoutEffect(() => {
    const stage = stageRef.current;
    const ratio = scale / previous.current;
    previous.current = scale;
    if (!stage || ratio === 1) return;
    const cx = stage.clientWidth / 2;
    const cy = stage.clientHeight / 2;
    stage.scrollLeft = (stage.scrollLeft + cx) * ratio - cx;
    stage.scrollTop = (stage.scrollTop + cy) * ratio - cy;
  }, [scale, stageRef]);

  useEffect(() => {
    const stage = stageRef.current;
    if (!stage) return;
    // Trackpad pinches arrive as wheel events with ctrlKey set; the listener must be active to keep
    // the browser from zooming the whole window.
    const onWheel = (event: WheelEvent) => {
      if (!event.ctrlKey && !event.metaKey) return;
      event.preventDefault();
      setScale((current) => clampZoom(current * Math.exp(-event.deltaY * 0.01)));
    };
    const pointers = new Map<number, { x: number; y: number }>();
    let pinchDistance = 0;
    let drag: { x: number; y: number; left: number; top: number } | null = null;
    const distance = () => {
      const [a, b] = [...pointers.values()];
      return a && b ? Math.hypot(a.x - b.x, a.y - b.y) : 0;
    };
    const onDown = (event: PointerEvent) => {
      pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
      if (pointers.size === 2) {
        pinchDistance = distance();
        drag = null;
        return;
      }
      // Dragging over the words selects them; dragging anywhere else on the stage pans.
      const target = event.target as Element | null;
      if (event.pointerType === 'mouse' && event.button === 0 && !target?.closest('[data-word]')) {
        drag = { x: event.clientX, y: event.clientY, left: stage.scrollLeft, top: stage.scrollTop };
        stage.setPointerCapture(event.pointerId);
      }
    };
    const onMove = (event: PointerEvent) => {
      if (!pointers.has(event.pointerId)) return;
      pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
      if (pointers.size === 2 && pinchDistance > 0) {
        const now = distance();
        const factor = now / pinchDistance;
        pinchDistance = now;
        setScale((current) => clampZoom(current * factor));
      } else if (drag) {
        stage.scrollLeft = drag.left - (event.clientX - drag.x);
        stage.scrollTop = drag.top - (event.clientY - drag.y);
      }
    };
    const onUp = (event: PointerEvent) => {
      pointers.delete(event.pointerId);
      if (pointers.size < 2) pinchDistance = 0;
      if (pointers.size === 0) drag = null;
    };
    stage.addEventListener('wheel', onWheel, { passive: false });
    stage.addEventListener('pointerdown', onDown);
    stage.addEventListener('pointermove', onMove);
    stage.addEventListener('pointerup', onUp);
    stage.addEventListener('pointercancel', onUp);
    return () => {
      stage.removeEventListener('wheel', onWheel);
      stage.removeEventListener('pointerdown', onDown);
      stage.removeEventListener('pointermove', onMove);
      stage.removeEventListener('pointerup', onUp);
      stage.removeEventListener('pointercancel', onUp);
    };
  }, [stageRef]);

  return {
    scale,
    fitWidth,
    zoomIn: useCallback(() => setScale((current) => steppedZoom(current, 1)), []),
    zoomOut: useCallback(() => setScale((current) => steppedZoom(current, -1)), []),
    fitToWidth: useCallback(() => setScale(1), []),
  };
}
