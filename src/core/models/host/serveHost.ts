/*
 * The child side of an in-process model host: one loop that runs each request with its own
 * AbortSignal, answers with a result or a typed error, honours `cancel`, and exits once the parent
 * goes away. A runtime that aborts the process (llama.cpp's GGML_ASSERT, a native crash in ONNX
 * Runtime) takes only this process down; the parent reports it.
 */
import { QuireError } from '../../../shared/errors';
import { parentChannel } from '../../common/parentChannel';
import type { HostCancel, HostErrorInfo, HostReply, HostRequestBase } from './protocol';

export type HostSend = (reply: HostReply) => void;

export interface HostHandlers<Request extends HostRequestBase> {
  /** Runs one request; `dispose` requests are also passed here before the process disconnects. */
  perform(request: Request, signal: AbortSignal, send: HostSend): Promise<unknown>;
}

export function toHostError(error: unknown): HostErrorInfo {
  if (error instanceof QuireError) return { code: error.code, message: error.message };
  return { code: 'model_failed', message: error instanceof Error ? error.message : String(error) };
}

/** Starts answering the parent; call once, at the top of a `*.child.ts` module. */
export function serveHost<Request extends HostRequestBase>(handlers: HostHandlers<Request>): void {
  const running = new Map<number, AbortController>();
  const parent = parentChannel();
  const send: HostSend = (reply) => parent.send(reply);

  async function handle(request: Request | HostCancel): Promise<void> {
    if (request.type === 'cancel') {
      running.get((request as HostCancel).targetId)?.abort();
      return;
    }
    const work = request as Request;
    const controller = new AbortController();
    running.set(work.id, controller);
    try {
      const value = await handlers.perform(work, controller.signal, send);
      send({ type: 'result', id: work.id, value });
    } catch (error) {
      send({ type: 'error', id: work.id, error: toHostError(error) });
    } finally {
      running.delete(work.id);
    }
    if (work.type === 'dispose') parent.close();
  }

  parent.onMessage((message) => void handle(message as Request | HostCancel));
  // The parent went away: nothing is left to answer to.
  parent.onDisconnect(() => process.exit(0));
  send({ type: 'ready', pid: process.pid });
}
