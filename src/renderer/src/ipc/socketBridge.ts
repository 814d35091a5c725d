import type { CallName, CallResult, EventName } from '../../../shared/ipc/contract';
import { reconnectDelay } from '../lib/backoff';
import type { ConnectionPhase } from './connectionStore';
import { PendingCalls, encodeCall, encodeCancel, failure, parseServerMessage } from './socketMessages';
import type { Transport } from './transport';

export interface SocketBridgeOptions {
  url: string;
  openSocket?: (url: string) => WebSocket;
  onPhase?: (phase: ConnectionPhase, retryAt: number | null) => void;
  delayFor?: (attempt: number) => number;
  now?: () => number;
}

const LOST_MESSAGE = 'The connection to Quire was lost before it answered. Try again once it reconnects.';
const OFFLINE_MESSAGE = 'Not connected to Quire right now. It is reconnecting; try again in a moment.';

/** Browser mode: the contract over one WebSocket to `quire serve`, reconnecting with back-off. */
export class SocketBridge implements Transport {
  private socket: WebSocket | null = null;
  private phase: ConnectionPhase = 'connecting';
  private attempt = 0;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  /** Calls made while the socket is still opening; sent once it opens. */
  private outbox: string[] = [];
  private readonly pending = new PendingCalls();
  private readonly eventListeners = new Map<string, Set<(payload: unknown) => void>>();
  private readonly connectedListeners = new Set<() => void>();
  private readonly openSocket: (url: string) => WebSocket;
  private readonly delayFor: (attempt: number) => number;
  private readonly now: () => number;

  constructor(private readonly options: SocketBridgeOptions) {
    this.openSocket = options.openSocket ?? ((url) => new WebSocket(url));
    this.delayFor = options.delayFor ?? ((attempt) => reconnectDelay(attempt));
    this.now = options.now ?? Date.now;
  }

  start(): void {
    this.connect();
  }

  /** Skips the remaining back-off wait. */
  retryNow(): void {
    if (this.phase !== 'reconnecting') return;
    if (this.retryTimer !== null) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    this.connect();
  }

  call(name: CallName, input: unknown, signal?: AbortSignal): Promise<CallResult<unknown>> {
    if (this.phase === 'reconnecting') return Promise.resolve(failure('internal', OFFLINE_MESSAGE));
    if (signal?.aborted) return Promise.resolve(failure('cancelled', 'Cancelled.'));
    const { id, result } = this.pending.open();
    const message = encodeCall(id, name, input);
    if (this.phase === 'connected' && this.socket) this.socket.send(message);
    else this.outbox.push(message);
    if (!signal) return result;
    const cancel = () => this.cancel(id, message);
    signal.addEventListener('abort', cancel, { once: true });
    return result.finally(() => signal.removeEventListener('abort', cancel));
  }

  /** A call still waiting to go out is dropped here; one sent is stopped by the server, which answers it. */
  private cancel(id: number, message: string): void {
    const queued = this.outbox.indexOf(message);
    if (queued >= 0) {
      this.outbox.splice(queued, 1);
      this.pending.settle(id, failure('cancelled', 'Cancelled.'));
    } else if (this.phase === 'connected' && this.socket) {
      this.socket.send(encodeCancel(id));
    }
  }

  subscribe(event: EventName, listener: (payload: unknown) => void): () => void {
    let listeners = this.eventListeners.get(event);
    if (!listeners) {
      listeners = new Set();
      this.eventListeners.set(event, listeners);
    }
    listeners.add(listener);
    return () => listeners.delete(listener);
  }

  onConnected(listener: () => void): () => void {
    this.connectedListeners.add(listener);
    if (this.phase === 'connected') listener();
    return () => this.connectedListeners.delete(listener);
  }

  pathForFile(): string | null {
    return null;
  }

  private setPhase(phase: ConnectionPhase, retryAt: number | null): void {
    this.phase = phase;
    this.options.onPhase?.(phase, retryAt);
  }

  private connect(): void {
    this.setPhase('connecting', null);
    let socket: WebSocket;
    try {
      socket = this.openSocket(this.options.url);
    } catch (error) {
      console.error('Quire: cannot open the WebSocket', error);
      this.scheduleReconnect();
      return;
    }
    this.socket = socket;
    socket.addEventListener('open', () => {
      if (socket !== this.socket) return;
      this.attempt = 0;
      this.setPhase('connected', null);
      const queued = this.outbox;
      this.outbox = [];
      for (const message of queued) socket.send(message);
      for (const listener of [...this.connectedListeners]) listener();
    });
    socket.addEventListener('message', (event: MessageEvent) => {
      if (socket === this.socket) this.handleMessage(event.data);
    });
    socket.addEventListener('close', () => {
      if (socket !== this.socket) return;
      this.socket = null;
      this.outbox = [];
      this.pending.settleAll(failure('internal', LOST_MESSAGE));
      this.scheduleReconnect();
    });
  }

  private scheduleReconnect(): void {
    const delay = this.delayFor(this.attempt);
    this.attempt += 1;
    this.setPhase('reconnecting', this.now() + delay);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      this.connect();
    }, delay);
  }

  private handleMessage(raw: unknown): void {
    const message = parseServerMessage(raw);
    if (!message) {
      console.warn('Quire: ignored a malformed message from the server');
      return;
    }
    if (message.type === 'result') {
      if (!this.pending.settle(message.id, message.result)) {
        console.warn(`Quire: ignored an answer to unknown call ${message.id}`);
      }
      return;
    }
    const listeners = this.eventListeners.get(message.name);
    if (!listeners) return;
    for (const listener of [...listeners]) listener(message.payload);
  }
}
