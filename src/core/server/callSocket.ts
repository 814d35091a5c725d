/*
 * One browser connection: checks each frame, runs the call through the dispatcher and answers by id.
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
  let inFlight = 0;
  // ws closes the socket itself on a bad frame (1007 invalid UTF-8, 1009 too big) or a reset; it
  // reports that here, and without a listener the error would end the process.
  ws.on('error', () => undefined);
  ws.on('message', (data, isBinary) => {
    const frame = checkCallFrame(data, isBinary);
    if (!frame.ok) return ws.close(frame.code, frame.reason);
    if (inFlight >= MAX_CALLS_IN_FLIGHT) return ws.close(CloseCode.policyViolation, 'Too many calls at once');
    const { id, name, input } = frame.call;
    inFlight++;
    dispatch(name, input)
      .then((result) => sendFrame(ws, { type: 'result', id, result }))
      .catch((error: unknown) => log(`${name} could not be answered: ${describe(error)}`))
      .finally(() => inFlight--);
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
