import type { CallName, CallResult, EventName } from '../../../shared/ipc/contract';

/** What carries calls and events between the UI and the engine; the typed client sits on top. */
export interface Transport {
  /** Aborting `signal` asks the engine to stop; the call then ends `cancelled`. */
  call(name: CallName, input: unknown, signal?: AbortSignal): Promise<CallResult<unknown>>;
  subscribe(event: EventName, listener: (payload: unknown) => void): () => void;
  /** Runs now if already connected, then after every reconnect, so stores can refetch. */
  onConnected(listener: () => void): () => void;
  /** The filesystem path of a dropped file or folder, where the transport can know it. */
  pathForFile(file: File): string | null;
}
