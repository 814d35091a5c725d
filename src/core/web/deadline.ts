/**
 * Runs `work` with a signal that aborts after `ms` (or with `outer`), and clears the timer when the work
 * ends: a timer left running would later abort a finished request, and undici would then reset the
 * kept-alive socket another request is using.
 */
export async function withDeadline<T>(
  ms: number,
  outer: AbortSignal | undefined,
  work: (signal: AbortSignal, timedOut: () => boolean) => Promise<T>,
): Promise<T> {
  const controller = new AbortController();
  let expired = false;
  const timer = setTimeout(() => {
    expired = true;
    controller.abort(new DOMException('The time limit was reached.', 'TimeoutError'));
  }, ms);
  const signal = outer ? AbortSignal.any([outer, controller.signal]) : controller.signal;
  try {
    return await work(signal, () => expired);
  } finally {
    clearTimeout(timer);
  }
}
