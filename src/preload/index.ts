/**
 * The preload: exposes `window.quire`, one function per contract call plus `on(event, listener)` and
 * `cancel(callId)`, built from the contract's keys. Nothing else crosses into the page.
 */
import { contextBridge, ipcRenderer, webUtils, type IpcRendererEvent } from 'electron';
import { CANCEL_CHANNEL, callNames, channelOf, isEventName, type EventName } from '../shared/ipc/contract';

const api: Record<string, unknown> = {};
for (const name of callNames) {
  // A signal cannot cross the context bridge: the page names its call by an id and cancels by it.
  api[name] = (input: unknown, callId?: number) => ipcRenderer.invoke(channelOf(name), input, callId);
}

api.cancel = (callId: number): void => ipcRenderer.send(CANCEL_CHANNEL, callId);

api.on = (event: EventName, listener: (payload: unknown) => void): (() => void) => {
  if (!isEventName(event)) throw new Error(`Unknown event ${String(event)}`);
  const channel = channelOf(event);
  const forward = (_event: IpcRendererEvent, payload: unknown) => listener(payload);
  ipcRenderer.on(channel, forward);
  return () => ipcRenderer.removeListener(channel, forward);
};

/** The path of a dropped file or folder; the sandboxed page cannot learn it otherwise. */
api.getPathForFile = (file: File): string => webUtils.getPathForFile(file);

contextBridge.exposeInMainWorld('quire', api);
