/*
 * One browser connection: checks each frame, runs the call through the dispatcher and answers by id. A
 * cancel frame aborts the call of that id (one this connection no longer has is ignored), and a closed
 * connection aborts all of its calls: nobody is left to read their answers.
 * Nothing a client sends can throw out of here: bad frames close the socket with a code, a failed call
 * is answered as an error, and a failed send only ends this connection.
 */
import type { WebSocket } from 'ws';
import type { Dispatch } from '../api/dispatcher';
import { checkCallFrame, CloseCode } from './callFrames';

/** Calls one connection may have running at once; the UI keeps a few, a flood is not a UI. */
const MAX_CALLS_IN_FLIGHT = 64;
/** Unsent bytes a connection may queue (events, results) before it counts as not reading. */
const MAX_BUFFERED_BYTES = 64 * 1024 * 1024;

export function serveCallSocket(ws: WebSocket, dispatch: Dispatch, log: (message: string) => void): void {
  const running = new Map<number, AbortController>();
  // ws closes the socket itself on a bad frame (1007 invalid UTF-8, 1009 too big) or a reset; it
  // reports that here, and without a listener the error would end the process.
  ws.on('error', () => undefined);
  ws.on('close', () => {
    for (const controller of running.values()) controller.abort();
    running.clear();
  });
  let inFlight = 0;
  ws.on('message', (data, isBinary) => {
    const frame = checkCallFrame(data, isBinary);
    if (!frame.ok) return ws.close(frame.code, frame.reason);
    if ('cancel' in frame) return running.get(frame.cancel.id)?.abort();
    if (inFlight >= MAX_CALLS_IN_FLIGHT) return ws.close(CloseCode.policyViolation, 'Too many calls at once');
    const { id, name, input } = frame.call;
    // A reused id takes the cancel over: the client can only mean its latest call.
    const controller = new AbortController();
    running.set(id, controller);
    inFlight++;
    dispatch(name, input, { signal: controller.signal })
      .then((result) => sendFrame(ws, { type: 'result', id, result }))
      .catch((error: unknown) => log(`${name} could not be answered: ${describe(error)}`))
      .finally(() => {
        inFlight--;
        if (running.get(id) === controller) running.delete(id);
      });
  });
}

/** Sends a frame if the connection is open; a client that stopped reading is dropped instead. */
export function sendFrame(ws: WebSocket, frame: unknown): void {
  if (ws.readyState !== ws.OPEN) return;
  if (ws.bufferedAmount > MAX_BUFFERED_BYTES) {
    ws.terminate();
    return;
  }
  ws.send(JSON.stringify(frame), () => undefined);
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
