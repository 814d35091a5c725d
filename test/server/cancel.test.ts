import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type WebSocket from 'ws';
import { openSocket, sendFrameAndObserve, startLiveServer, type LiveServer } from './harness';

let live: LiveServer;
beforeAll(async () => {
  live = await startLiveServer();
});
afterAll(async () => {
  await live?.close();
});

type HeldSearch = 'documents' | 'chunks' | 'pages';

/**
 * Makes one of the real index's searches wait until its signal aborts: the rest of the path (socket,
 * frame checks, dispatcher, the call's handler and the services between) is the real one. Returns the
 * signals the search got.
 */
function holdSearch(method: HeldSearch): { signals: AbortSignal[]; reached: Promise<void>; restore(): void } {
  const search = live.core.index.search as unknown as Record<
    HeldSearch,
    (query: string, options?: { signal?: AbortSignal }) => Promise<unknown>
  >;
  const original = search[method];
  const signals: AbortSignal[] = [];
  let reachedNow: () => void = () => undefined;
  const reached = new Promise<void>((resolve) => (reachedNow = resolve));
  search[method] = (_query, options = {}) => {
    const signal = options.signal;
    if (!signal) return Promise.reject(new Error(`search.${method} was given no signal`));
    signals.push(signal);
    reachedNow();
    return new Promise((_resolve, reject) => {
      signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true });
    });
  };
  return { signals, reached, restore: () => (search[method] = original) };
}

function nextResult(ws: WebSocket, id: number): Promise<unknown> {
  return new Promise((resolve) => {
    const onMessage = (data: WebSocket.RawData) => {
      const frame = JSON.parse(String(data)) as { type: string; id: number; result: unknown };
      if (frame.type !== 'result' || frame.id !== id) return;
      ws.off('message', onMessage);
      resolve(frame.result);
    };
    ws.on('message', onMessage);
  });
}

const send = (ws: WebSocket, frame: unknown) => ws.send(JSON.stringify(frame));

describe('cancelling a call over the WebSocket of quire serve', () => {
  it('answers a held search cancelled when its cancel frame comes, and aborts the search itself', async () => {
    const held = holdSearch('documents');
    const ws = await openSocket(live);
    try {
      const answer = nextResult(ws, 7);
      send(ws, { type: 'call', id: 7, name: 'search.documents', input: { query: 'transformer' } });
      await held.reached;
      // A cancel for a call this connection does not have changes nothing.
      send(ws, { type: 'cancel', id: 8 });
      const listed = nextResult(ws, 9);
      send(ws, { type: 'call', id: 9, name: 'library.list', input: {} });
      expect(await listed).toMatchObject({ ok: true });
      expect(held.signals[0]!.aborted).toBe(false);
      send(ws, { type: 'cancel', id: 7 });
      expect(await answer).toEqual({ ok: false, error: { code: 'cancelled', message: 'Cancelled.' } });
      expect(held.signals[0]!.aborted).toBe(true);
      // The connection goes on serving; a cancel for a call already answered is ignored.
      send(ws, { type: 'cancel', id: 7 });
      const again = nextResult(ws, 10);
      send(ws, { type: 'call', id: 10, name: 'library.list', input: {} });
      expect(await again).toMatchObject({ ok: true });
    } finally {
      ws.terminate();
      held.restore();
    }
  });

  it.each([
    ['search.query', { query: 'transformer', mode: 'bm25' }, 'chunks'],
    ['search.query', { query: 'transformer', mode: 'pages' }, 'pages'],
    ['search.retrieve', { query: 'transformer', mode: 'bm25' }, 'chunks'],
  ] as const)('passes the cancel of %s %j on to the index', async (name, input, method) => {
    const held = holdSearch(method);
    const ws = await openSocket(live);
    try {
      const answer = nextResult(ws, 1);
      send(ws, { type: 'call', id: 1, name, input });
      await held.reached;
      send(ws, { type: 'cancel', id: 1 });
      expect(await answer).toMatchObject({ ok: false, error: { code: 'cancelled' } });
      expect(held.signals.every((signal) => signal.aborted)).toBe(true);
    } finally {
      ws.terminate();
      held.restore();
    }
  });

  it('aborts the calls of a connection that closes', async () => {
    const held = holdSearch('documents');
    try {
      const ws = await openSocket(live);
      send(ws, { type: 'call', id: 1, name: 'search.documents', input: { query: 'transformer' } });
      await held.reached;
      const aborted = new Promise<void>((resolve) =>
        held.signals[0]!.addEventListener('abort', () => resolve(), { once: true }),
      );
      ws.close();
      await aborted;
      expect(held.signals[0]!.aborted).toBe(true);
    } finally {
      held.restore();
    }
  });

  it('closes a connection whose cancel frame is malformed', async () => {
    for (const frame of [
      { type: 'cancel' },
      { type: 'cancel', id: -1 },
      { type: 'cancel', id: '7' },
      { type: 'cancel', id: 1.5 },
      { type: 'cancel', id: 7, name: 'search.query' },
    ]) {
      const outcome = await sendFrameAndObserve(live, JSON.stringify(frame), false);
      expect(outcome.closeCode, JSON.stringify(frame)).toBe(1008);
    }
  });
});
