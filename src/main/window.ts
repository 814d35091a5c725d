import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { BrowserWindow, shell } from 'electron';
import { externalUrlToOpen } from './externalLinks';
import { trustedPageMatcher } from './trustedPage';

const here = fileURLToPath(new URL('.', import.meta.url));
const rendererIndex = join(here, '../renderer/index.html');
const devServerUrl = process.env.ELECTRON_RENDERER_URL;

/** Only our own page may talk to core: the built index.html, or the dev server in development. */
export const isTrustedUrl = trustedPageMatcher(pathToFileURL(rendererIndex).href, devServerUrl);

export function createMainWindow(): BrowserWindow {
  const window = new BrowserWindow({
    width: 1280,
    height: 820,
    minWidth: 880,
    minHeight: 560,
    show: false,
    title: 'Quire',
    backgroundColor: '#1b1c1f',
    webPreferences: {
      // Reviewed: the preload exposes one function per contract call and nothing else (no ipcRenderer,
      // no Node), inside a sandboxed, context-isolated page; main checks each call's sender and input.
      preload: join(here, '../preload/index.cjs'), // eng-disable PRELOAD_JS_CHECK
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      spellcheck: false,
      // A middle-click would otherwise ask for a new window, a path around will-navigate.
      disableBlinkFeatures: 'Auxclick',
    },
  });

  // The page never leaves Quire and opens no windows; a web link it shows (a PDF proposed from a web
  // search) goes to the system browser only as a plain http(s) URL (externalLinks.ts).
  window.webContents.setWindowOpenHandler(({ url }) => {
    const link = externalUrlToOpen(url);
    // Reviewed: only the checked URL above reaches openExternal.
    if (link) void shell.openExternal(link); // eng-disable OPEN_EXTERNAL_JS_CHECK
    return { action: 'deny' };
  });
  window.webContents.on('will-navigate', (event, url) => {
    if (!isTrustedUrl(url)) event.preventDefault();
  });
  window.webContents.on('will-attach-webview', (event) => event.preventDefault());
  window.once('ready-to-show', () => window.show());

  if (devServerUrl) void window.loadURL(devServerUrl);
  else void window.loadFile(rendererIndex);
  return window;
}
