/**
 * The child side of a parent-child message channel: Node's IPC when the child was forked, the
 * parent port when it runs as an Electron utility process (see `useChildLauncher`).
 */
export interface ParentChannel {
  send(message: unknown): void;
  onMessage(listener: (message: unknown) => void): void;
  /** Called when the parent goes away. A utility process never sees this: Electron ends it with its parent. */
  onDisconnect(listener: () => void): void;
  /** Ends the channel, so the process can exit once its work is done. */
  close(): void;
}

interface UtilityParentPort {
  postMessage(message: unknown): void;
  on(event: 'message', listener: (event: { data: unknown }) => void): void;
}

export function parentChannel(): ParentChannel {
  const port = (process as { parentPort?: UtilityParentPort }).parentPort;
  if (port) {
    return {
      send: (message) => port.postMessage(message),
      onMessage: (listener) => port.on('message', (event) => listener(event.data)),
      onDisconnect: () => undefined,
      // The port keeps a utility process alive; let the reply just posted leave first.
      close: () => setTimeout(() => process.exit(0), 100),
    };
  }
  return {
    send: (message) => process.send?.(message),
    onMessage: (listener) => process.on('message', listener),
    onDisconnect: (listener) => process.on('disconnect', listener),
    close: () => process.disconnect?.(),
  };
}
