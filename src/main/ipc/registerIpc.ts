import { ipcMain, type BrowserWindow, type IpcMainEvent, type IpcMainInvokeEvent } from 'electron';
import type { Core } from '../../core/desktop';
import {
  CANCEL_CHANNEL,
  callNames,
  channelOf,
  eventNames,
  isCallId,
  type CallResult,
} from '../../shared/ipc/contract';

/**
 * Wires every contract call to core and every core event to the window. A call is answered only when
 * it comes from the top frame of our own window showing our own page; anything else is refused. A call
 * sent with an id can be cancelled by that id on CANCEL_CHANNEL, from the same trusted frame only.
 */
export function registerIpc(
  core: Core,
  window: BrowserWindow,
  isTrustedUrl: (url: string) => boolean,
): () => void {
  const isTrustedSender = (event: IpcMainInvokeEvent | IpcMainEvent) => {
    const frame = event.senderFrame;
    return (
      event.sender === window.webContents &&
      frame !== null &&
      frame === window.webContents.mainFrame &&
      isTrustedUrl(frame.url)
    );
  };
  /** The window's calls that carry an id, by that id; a reused id takes the cancel over. */
  const running = new Map<number, AbortController>();

  for (const name of callNames) {
    ipcMain.handle(
      channelOf(name),
      async (event, input: unknown, callId?: unknown): Promise<CallResult<unknown>> => {
        if (!isTrustedSender(event)) {
          return {
            ok: false,
            error: { code: 'forbidden', message: 'This call did not come from Quire’s window.' },
          };
        }
        if (callId === undefined) return core.dispatch(name, input);
        if (!isCallId(callId)) {
          return { ok: false, error: { code: 'invalid_input', message: `Bad call id for ${name}.` } };
        }
        const controller = new AbortController();
        running.set(callId, controller);
        try {
          return await core.dispatch(name, input, { signal: controller.signal });
        } finally {
          if (running.get(callId) === controller) running.delete(callId);
        }
      },
    );
  }

  const cancel = (event: IpcMainEvent, callId: unknown) => {
    if (!isTrustedSender(event) || !isCallId(callId)) return;
    running.get(callId)?.abort();
  };
  ipcMain.on(CANCEL_CHANNEL, cancel);

  const unsubscribe = eventNames.map((name) =>
    core.events.on(name, (payload) => {
      if (!window.isDestroyed()) window.webContents.send(channelOf(name), payload);
    }),
  );

  return () => {
    for (const name of callNames) ipcMain.removeHandler(channelOf(name));
    ipcMain.removeListener(CANCEL_CHANNEL, cancel);
    for (const controller of running.values()) controller.abort();
    running.clear();
    for (const off of unsubscribe) off();
  };
}
