import type { QuireApi } from '../../../shared/ipc/contract';
import { useConnectionStore } from './connectionStore';
import { PreloadTransport } from './preloadBridge';
import { takeSessionToken, socketUrl } from './sessionToken';
import { SocketBridge } from './socketBridge';
import type { Transport } from './transport';
import { createQuireApi } from './typedApi';

/** Electron's preload when present; otherwise the loopback server that served this page. */
function selectTransport(): Transport {
  if (window.quire) {
    useConnectionStore.setState({ phase: 'connected', everConnected: true });
    return new PreloadTransport(window.quire);
  }
  const token = takeSessionToken(window);
  const bridge = new SocketBridge({
    url: socketUrl(window.location, token),
    onPhase: (phase, retryAt) =>
      useConnectionStore.setState((state) => ({
        phase,
        retryAt,
        everConnected: state.everConnected || phase === 'connected',
      })),
  });
  useConnectionStore.setState({ hasToken: token !== null, retryNow: () => bridge.retryNow() });
  bridge.start();
  return bridge;
}

const transport = selectTransport();

/** The one client every store uses. */
export const quire: QuireApi = createQuireApi(transport);

/** Runs now if connected and after every reconnect. */
export function onEngineConnected(listener: () => void): () => void {
  return transport.onConnected(listener);
}

/** The filesystem path of a dropped folder, or null where the platform cannot tell (browsers). */
export function droppedPath(file: File): string | null {
  return transport.pathForFile(file);
}

/** Whether dropping a folder can add it (Electron) or the user must type its path (browser). */
export const canDropFolders = window.quire !== undefined;

/** The desktop app can hand a file to the system's own viewer; the browser page cannot. */
export const canOpenInSystemViewer = window.quire !== undefined;
