/**
 * The Electron main process: a thin shell around core. It owns the window, the session's security
 * settings and the IPC wiring; everything else is core's.
 */
import type { BrowserWindow } from 'electron';
import { app, dialog } from 'electron';
import electronUpdater from 'electron-updater';
import {
  APP_WRITER,
  appMcpSharing,
  createCore,
  guardProcess,
  modelLaunchOptions,
  useChildLauncher,
  type Core,
} from '../core/desktop';
import { createAppUpdater } from './appUpdater';
import { registerIpc } from './ipc/registerIpc';
import { openFileInSystemViewer } from './openFile';
import { registerPageImageScheme, servePageImages } from './pageImageScheme';
import { createSafeStorageSecrets } from './secretStore';
import { hardenSession } from './security';
import { launchUtilityChild } from './utilityChild';
import { createMainWindow, isTrustedUrl } from './window';

let core: Core | undefined;
let window: BrowserWindow | undefined;

async function start(): Promise<void> {
  hardenSession();
  useChildLauncher(launchUtilityChild);
  const dataDir = app.getPath('userData');
  core = createCore({
    dataDir,
    // A second writer (`quire index` beside the app) is refused, naming the app.
    writerName: APP_WRITER,
    watch: true,
    secrets: createSafeStorageSecrets(dataDir),
    // QUIRE_MODEL and QUIRE_SERVERS mean the same here as for `quire serve` and the CLI.
    ...modelLaunchOptions({}, process.env),
    // Only an installed build has a release feed to update from (app-update.yml beside app.asar).
    updater: app.isPackaged ? createAppUpdater(electronUpdater.autoUpdater) : null,
    openFile: openFileInSystemViewer,
    // Settings' switch that lets other apps on this computer use the library (off until turned on).
    mcpSharing: appMcpSharing(),
  });
  servePageImages(core, process.env.ELECTRON_RENDERER_URL);
  window = createMainWindow();
  const unregister = registerIpc(core, window, isTrustedUrl);
  window.on('closed', () => {
    unregister();
    window = undefined;
  });
  await core.start();
}

// A failed call or a stray rejection is logged with what it was; the window stays up.
guardProcess({ label: 'Quire main process' });

// Electron takes scheme privileges only before the app is ready.
registerPageImageScheme();

// Lets tests and power users keep a separate library.
if (process.env.QUIRE_USER_DATA) app.setPath('userData', process.env.QUIRE_USER_DATA);

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', () => {
    if (window?.isMinimized()) window.restore();
    window?.focus();
  });
  app.on('window-all-closed', () => app.quit());
  app.on('will-quit', (event) => {
    if (!core) return;
    event.preventDefault();
    const closing = core;
    core = undefined;
    void closing.dispose().finally(() => app.quit());
  });
  // A library it cannot open (`quire serve` or `quire index` writing it) is said once, then the app ends.
  void app
    .whenReady()
    .then(start)
    .catch((error: unknown) => {
      dialog.showErrorBox(
        'Quire cannot open its library',
        error instanceof Error ? error.message : String(error),
      );
      app.quit();
    });
}
