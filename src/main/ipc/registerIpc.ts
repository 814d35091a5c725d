import { ipcMain, type BrowserWindow, type IpcMainInvokeEvent } from 'electron';
import type { Core } from '../../core/desktop';
import { callNames, channelOf, eventNames, type CallResult } from '../../shared/ipc/contract';

/**
 * Wires every contract call to core and every core event to the window. A call is answered only when
 * it comes from the top frame of our own window showing our own page; anything else is refused.
 */
export function registerIpc(
  core: Core,
  window: BrowserWindow,
  isTrustedUrl: (url: string) => boolean,
): () => void {
  const isTrustedSender = (event: IpcMainInvokeEvent) => {
    const frame = event.senderFrame;
    return (
      event.sender === window.webContents &&
      frame !== null &&
      frame === window.webContents.mainFrame &&
      isTrustedUrl(frame.url)
    );
  };

  for (const name of callNames) {
    ipcMain.handle(channelOf(name), async (event, input: unknown): Promise<CallResult<unknown>> => {
      if (!isTrustedSender(event)) {
        return {
          ok: false,
          error: { code: 'forbidden', message: 'This call did not come from Quire’s window.' },
        };
      }
      return core.dispatch(name, input);
    });
  }

  const unsubscribe = eventNames.map((name) =>
    core.events.on(name, (payload) => {
      if (!window.isDestroyed()) window.webContents.send(channelOf(name), payload);
    }),
  );

  return () => {
    for (const name of callNames) ipcMain.removeHandler(channelOf(name));
    for (const off of unsubscribe) off();
  };
}
