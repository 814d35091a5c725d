import type { CallInput, CallName, CallOutput, CallResult, EventName } from '../../../shared/ipc/contract';
import { failure } from './socketMessages';
import type { Transport } from './transport';

/** What the preload script exposes as `window.quire` inside Electron. */
export type QuirePreload = {
  /** `callId`, when given, is what `cancel` names the call by. */
  [K in CallName]: (input: CallInput<K>, callId?: number) => Promise<CallResult<CallOutput<K>>>;
} & {
  on(event: EventName, listener: (payload: unknown) => void): () => void;
  /** Tells the engine the window no longer wants the answer to call `callId`. */
  cancel(callId: number): void;
  getPathForFile(file: File): string;
};

declare global {
  interface Window {
    quire?: QuirePreload;
  }
}

/** Inside Electron: calls go through the preload, which is always connected. */
export class PreloadTransport implements Transport {
  /** Ids for calls that may be cancelled; the others go without one. */
  private nextCallId = 1;

  constructor(private readonly bridge: QuirePreload) {}

  async call(name: CallName, input: unknown, signal?: AbortSignal): Promise<CallResult<unknown>> {
    const invoke = this.bridge[name] as
      ((input: unknown, callId?: number) => Promise<CallResult<unknown>>) | undefined;
    if (typeof invoke !== 'function') return failure('unknown_call', `This build cannot call ${name}.`);
    if (signal?.aborted) return failure('cancelled', 'Cancelled.');
    const callId = signal ? this.nextCallId++ : undefined;
    const cancel = () => this.bridge.cancel(callId!);
    signal?.addEventListener('abort', cancel, { once: true });
    try {
      return await (callId === undefined ? invoke(input) : invoke(input, callId));
    } catch (error) {
      // A rejected IPC promise means main failed outside the contract; keep the UI alive.
      const message = error instanceof Error ? error.message : String(error);
      return failure('internal', message || `${name} failed.`);
    } finally {
      signal?.removeEventListener('abort', cancel);
    }
  }

  subscribe(event: EventName, listener: (payload: unknown) => void): () => void {
    return this.bridge.on(event, listener);
  }

  onConnected(listener: () => void): () => void {
    listener();
    return () => undefined;
  }

  pathForFile(file: File): string | null {
    try {
      const path = this.bridge.getPathForFile(file);
      return path.length > 0 ? path : null;
    } catch {
      return null;
    }
  }
}
