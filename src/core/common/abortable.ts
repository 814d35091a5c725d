/**
 * Settles with `promise`, or rejects as soon as `signal` aborts, whichever comes first: a port, a
 * provider or a database query that ignores the signal cannot hold a cancelled caller. Without a
 * signal it is `promise` itself.
 */
export function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) {
    promise.catch(() => undefined);
    return Promise.reject(signal.reason as Error);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error as Error);
      },
    );
  });
}

/** Iterates an async generator, giving up at once when `signal` aborts (the generator is told to return). */
export async function* abortableIterate<T>(
  generator: AsyncGenerator<T>,
  signal: AbortSignal,
): AsyncGenerator<T> {
  try {
    for (;;) {
      const next = await abortable(generator.next(), signal);
      if (next.done) return;
      yield next.value;
    }
  } finally {
    if (signal.aborted) void generator.return(undefined).catch(() => undefined);
  }
}
