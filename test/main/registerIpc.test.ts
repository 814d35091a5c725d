import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createDispatcher, type CallHandlers } from '../../src/core/api/dispatcher';
import type { Core } from '../../src/core/desktop';
import { CANCEL_CHANNEL, callNames, channelOf, type CallResult } from '../../src/shared/ipc/contract';

/** Electron's ipcMain as registerIpc uses it: the handlers and listeners it registers, kept to call. */
const ipc = vi.hoisted(() => ({
  handlers: new Map<string, (event: unknown, ...args: unknown[]) => Promise<unknown>>(),
  listeners: new Map<string, (event: unknown, ...args: unknown[]) => void>(),
}));
vi.mock('electron', () => ({
  ipcMain: {
    handle: (channel: string, handler: (event: unknown, ...args: unknown[]) => Promise<unknown>) =>
      ipc.handlers.set(channel, handler),
    removeHandler: (channel: string) => ipc.handlers.delete(channel),
    on: (channel: string, listener: (event: unknown, ...args: unknown[]) => void) =>
      ipc.listeners.set(channel, listener),
    removeListener: (channel: string) => ipc.listeners.delete(channel),
  },
}));

const { registerIpc } = await import('../../src/main/ipc/registerIpc');

const PAGE = 'app://quire/index.html';
const mainFrame = { url: PAGE };
const webContents = { mainFrame, send: () => undefined };
const window = { webContents, isDestroyed: () => false };
/** The window's top frame; a child frame and another window's contents are the untrusted senders. */
const fromWindow = { sender: webContents, senderFrame: mainFrame };
const fromChildFrame = { sender: webContents, senderFrame: { url: PAGE } };
const fromOtherWindow = { sender: { mainFrame }, senderFrame: mainFrame };

/** Search calls that wait on their signal, recording each; every other call is not reached here. */
function waitingCore(signals: AbortSignal[]): Core {
  const handlers = Object.fromEntries(
    callNames.map((name) => [
      name,
      (_args: unknown, signal: AbortSignal) => {
        signals.push(signal);
        return new Promise((_resolve, reject) => {
          signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true });
        });
      },
    ]),
  ) as unknown as CallHandlers;
  return { dispatch: createDispatcher(handlers), events: { on: () => () => undefined } } as unknown as Core;
}

function call(event: unknown, name: 'search.query', input: unknown, callId?: unknown) {
  const handler = ipc.handlers.get(channelOf(name))!;
  return handler(event, input, callId) as Promise<CallResult<unknown>>;
}

const cancel = (event: unknown, callId: unknown) => ipc.listeners.get(CANCEL_CHANNEL)!(event, callId);

describe('cancelling a call over Electron IPC', () => {
  let signals: AbortSignal[];
  let unregister: () => void;
  beforeEach(() => {
    signals = [];
    unregister = registerIpc(waitingCore(signals), window as never, (url) => url === PAGE);
    return () => unregister();
  });

  it('aborts the call of that id when the cancel comes from the window’s top frame', async () => {
    const answer = call(fromWindow, 'search.query', { query: 'trace' }, 3);
    await vi.waitFor(() => expect(signals).toHaveLength(1));
    cancel(fromWindow, 4);
    expect(signals[0]!.aborted).toBe(false);
    cancel(fromWindow, 3);
    expect(await answer).toMatchObject({ ok: false, error: { code: 'cancelled' } });
    expect(signals[0]!.aborted).toBe(true);
  });

  it('ignores a cancel from another frame or window, or with a bad id', async () => {
    const answer = call(fromWindow, 'search.query', { query: 'trace' }, 5);
    await vi.waitFor(() => expect(signals).toHaveLength(1));
    for (const [event, id] of [
      [fromChildFrame, 5],
      [fromOtherWindow, 5],
      [fromWindow, '5'],
      [fromWindow, -5],
      [fromWindow, null],
    ] as const) {
      cancel(event, id);
      expect(signals[0]!.aborted, JSON.stringify(id)).toBe(false);
    }
    unregister();
    // Unregistering (the window going away) aborts what is left.
    expect(await answer).toMatchObject({ ok: false, error: { code: 'cancelled' } });
  });

  it('refuses a bad call id and runs calls without one as before', async () => {
    expect(await call(fromWindow, 'search.query', { query: 'trace' }, 'x')).toMatchObject({
      ok: false,
      error: { code: 'invalid_input' },
    });
    expect(await call(fromChildFrame, 'search.query', { query: 'trace' }, 1)).toMatchObject({
      ok: false,
      error: { code: 'forbidden' },
    });
    expect(signals).toHaveLength(0);
    void call(fromWindow, 'search.query', { query: 'trace' });
    await vi.waitFor(() => expect(signals).toHaveLength(1));
    expect(signals[0]!.aborted).toBe(false);
  });
});
