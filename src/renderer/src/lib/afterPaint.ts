/** Longest wait for a frame: a hidden window draws none, and what waits must still go on. */
const FRAME_WAIT_MS = 100;

/**
 * Resolves once the window has had the chance to paint what was just rendered: after the next
 * animation frame and the task that follows it, or after a short wait where no frame comes.
 */
export function afterNextPaint(): Promise<void> {
  return new Promise((resolve) => {
    const fallback = setTimeout(resolve, FRAME_WAIT_MS);
    if (typeof requestAnimationFrame !== 'function') return;
    requestAnimationFrame(() =>
      setTimeout(() => {
        clearTimeout(fallback);
        resolve();
      }, 0),
    );
  });
}

/**
 * Runs `work` once, just before the next frame is drawn (or after a short wait where no frame
 * comes); returns a function that cancels it.
 */
export function beforeNextFrame(work: () => void): () => void {
  let done = false;
  const run = () => {
    if (done) return;
    done = true;
    clearTimeout(fallback);
    if (frame !== null) cancelAnimationFrame(frame);
    work();
  };
  const fallback = setTimeout(run, FRAME_WAIT_MS);
  const frame = typeof requestAnimationFrame === 'function' ? requestAnimationFrame(run) : null;
  return () => {
    done = true;
    clearTimeout(fallback);
    if (frame !== null) cancelAnimationFrame(frame);
  };
}
