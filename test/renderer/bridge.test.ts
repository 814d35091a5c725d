import { describe, expect, it, vi } from 'vitest';
import { PreloadTransport, type QuirePreload } from '../../src/renderer/src/ipc/preloadBridge';
import { SocketBridge } from '../../src/renderer/src/ipc/socketBridge';
import { createQuireApi, loadContractChecks } from '../../src/renderer/src/ipc/typedApi';

class FakeSocket extends EventTarget {
  sent: string[] = [];
  send(message: string) {
    this.sent.push(message);
  }
  open() {
    this.dispatchEvent(new Event('open'));
  }
  receive(data: unknown) {
    this.dispatchEvent(new MessageEvent('message', { data: JSON.stringify(data) }));
  }
  drop() {
    this.dispatchEvent(new Event('close'));
  }
}

function setup() {
  const sockets: FakeSocket[] = [];
  const phases: string[] = [];
  const bridge = new SocketBridge({
    url: 'ws://x/ws',
    openSocket: () => {
      const s = new FakeSocket();
      sockets.push(s);
      return s as unknown as WebSocket;
    },
    onPhase: (phase) => phases.push(phase),
    delayFor: () => 1000,
    now: () => 0,
  });
  bridge.start();
  return { bridge, sockets, phases, api: createQuireApi(bridge) };
}

const budget = {
  totalBytes: 1,
  availableBytes: 1,
  unifiedMemory: false,
  appHeadroomBytes: 0,
  entries: [],
  freeForModelsBytes: 1,
  notes: [],
};

describe('SocketBridge', () => {
  // First in the file: the contract's checks load once per window, and later tests have them.
  it('holds events until the contract loads, then checks them in order; calls before it go out', async () => {
    const { sockets, api } = setup();
    const socket = sockets[0]!;
    socket.open();
    const seen: unknown[] = [];
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    api.on('memory.onBudget', (b) => seen.push(b));
    socket.receive({ type: 'event', name: 'memory.onBudget', payload: { nonsense: true } });
    socket.receive({ type: 'event', name: 'memory.onBudget', payload: { ...budget, totalBytes: 2 } });
    socket.receive({ type: 'event', name: 'memory.onBudget', payload: budget });
    expect(seen).toEqual([]);
    // Unchecked here before the contract loads: the engine checks every call and answers a bad one.
    void api['chat.ask']({ question: '' });
    expect(socket.sent).toHaveLength(1);
    await loadContractChecks();
    expect(seen).toEqual([{ ...budget, totalBytes: 2 }, budget]);
    expect(warn).toHaveBeenCalledTimes(1);
    warn.mockRestore();
  });
  it('queues calls until open, answers by id, validates events', async () => {
    await loadContractChecks();
    const { sockets, api } = setup();
    const socket = sockets[0]!;
    const listed = api['library.list']({});
    expect(socket.sent).toHaveLength(0);
    socket.open();
    expect(JSON.parse(socket.sent[0]!)).toMatchObject({ type: 'call', name: 'library.list', input: {} });
    const id = JSON.parse(socket.sent[0]!).id;
    socket.receive({
      type: 'result',
      id,
      result: { ok: true, value: { roots: [], documents: [], scanning: false } },
    });
    expect(await listed).toEqual({ ok: true, value: { roots: [], documents: [], scanning: false } });
    const seen: unknown[] = [];
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    api.on('memory.onBudget', (b) => seen.push(b));
    socket.receive({ type: 'event', name: 'memory.onBudget', payload: { nonsense: true } });
    socket.receive({ type: 'event', name: 'memory.onBudget', payload: budget });
    expect(seen).toEqual([budget]);
    expect(warn).toHaveBeenCalledTimes(1);
    warn.mockRestore();
  });
  it('rejects bad input without a round trip once the contract is loaded', async () => {
    await loadContractChecks();
    const { sockets, api } = setup();
    sockets[0]!.open();
    const result = await api['chat.ask']({ question: '' });
    expect(result).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    expect(sockets[0]!.sent).toHaveLength(0);
  });
  it('fails pending calls on a drop, refuses calls while away, reconnects', async () => {
    vi.useFakeTimers();
    const { bridge, sockets, phases, api } = setup();
    let connects = 0;
    bridge.onConnected(() => connects++);
    sockets[0]!.open();
    expect(connects).toBe(1);
    const pending = api['library.progress']({});
    sockets[0]!.drop();
    expect(await pending).toMatchObject({ ok: false, error: { message: expect.stringContaining('lost') } });
    expect(await api['library.progress']({})).toMatchObject({
      ok: false,
      error: { message: expect.stringContaining('Not connected') },
    });
    vi.advanceTimersByTime(1000);
    expect(sockets).toHaveLength(2);
    sockets[1]!.open();
    expect(connects).toBe(2);
    expect(phases).toEqual(['connecting', 'connected', 'reconnecting', 'connecting', 'connected']);
    vi.useRealTimers();
  });
});

describe('cancelling a call from the window', () => {
  it('sends a cancel frame for a call the server has, and drops one still queued', async () => {
    await loadContractChecks();
    const { sockets, api } = setup();
    const socket = sockets[0]!;
    const early = new AbortController();
    const queued = api['search.query']({ query: 'first' }, { signal: early.signal });
    early.abort();
    expect(await queued).toMatchObject({ ok: false, error: { code: 'cancelled' } });
    socket.open();
    expect(socket.sent).toHaveLength(0);
    const controller = new AbortController();
    const sent = api['search.query']({ query: 'second' }, { signal: controller.signal });
    const { id } = JSON.parse(socket.sent[0]!) as { id: number };
    controller.abort();
    expect(JSON.parse(socket.sent[1]!)).toEqual({ type: 'cancel', id });
    socket.receive({
      type: 'result',
      id,
      result: { ok: false, error: { code: 'cancelled', message: 'Cancelled.' } },
    });
    expect(await sent).toMatchObject({ ok: false, error: { code: 'cancelled' } });
    // Aborting after the answer sends nothing more; an aborted signal sends no call at all.
    controller.abort();
    expect(await api['search.query']({ query: 'third' }, { signal: controller.signal })).toMatchObject({
      ok: false,
      error: { code: 'cancelled' },
    });
    expect(socket.sent).toHaveLength(2);
  });

  it('gives a cancellable call an id through the preload and cancels it by that id', async () => {
    const invoked: Array<{ input: unknown; callId: number | undefined }> = [];
    const cancelled: number[] = [];
    let answer: (result: unknown) => void = () => undefined;
    const preload = {
      'search.query': (input: unknown, callId?: number) => {
        invoked.push({ input, callId });
        return new Promise((resolve) => (answer = resolve));
      },
      cancel: (callId: number) => cancelled.push(callId),
    } as unknown as QuirePreload;
    const api = createQuireApi(new PreloadTransport(preload));
    void api['search.query']({ query: 'plain' });
    expect(invoked[0]).toEqual({ input: { query: 'plain' }, callId: undefined });
    const controller = new AbortController();
    const call = api['search.query']({ query: 'held' }, { signal: controller.signal });
    await vi.waitFor(() => expect(invoked).toHaveLength(2));
    const callId = invoked[1]!.callId;
    expect(callId).toEqual(expect.any(Number));
    controller.abort();
    expect(cancelled).toEqual([callId]);
    answer({ ok: false, error: { code: 'cancelled', message: 'Cancelled.' } });
    expect(await call).toMatchObject({ ok: false, error: { code: 'cancelled' } });
  });
});
