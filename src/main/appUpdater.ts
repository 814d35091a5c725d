import electronUpdater, { type AppUpdater, type ProgressInfo, type UpdateInfo } from 'electron-updater';
import type { Updater } from '../core/desktop';
import type { UpdateOffer } from '../shared/domain/updates';

/**
 * electron-updater as core's Updater, with every automatic step off: it checks when core asks,
 * downloads only on `download()` (the user's consent) and installs only on `install()`.
 *
 * What is verified: every file against the sha512 the release's latest*.yml states; on macOS,
 * Squirrel.Mac accepts the new app only if its code signature meets the running app's designated
 * requirement (same Developer ID); on Windows, the installer's Authenticode publisher must match the
 * publisherName electron-builder wrote into app-update.yml when it signed. Linux packages carry no
 * signature: their sha512 is the check.
 */
export function createAppUpdater(updater: AppUpdater): Updater {
  updater.autoDownload = false;
  updater.autoInstallOnAppQuit = false;
  updater.allowDowngrade = false;
  updater.fullChangelog = false;

  return {
    currentVersion: updater.currentVersion.version,
    async check() {
      const result = await updater.checkForUpdates();
      return result?.isUpdateAvailable ? toOffer(result.updateInfo) : null;
    },
    async download(onPercent, signal) {
      const token = new electronUpdater.CancellationToken();
      const onAbort = () => token.cancel();
      signal.addEventListener('abort', onAbort, { once: true });
      const onProgress = (progress: ProgressInfo) => onPercent(progress.percent);
      updater.on('download-progress', onProgress);
      try {
        await updater.downloadUpdate(token);
      } finally {
        updater.off('download-progress', onProgress);
        signal.removeEventListener('abort', onAbort);
      }
    },
    install() {
      updater.quitAndInstall(false, true);
    },
  };
}

function toOffer(info: UpdateInfo): UpdateOffer {
  const notes = Array.isArray(info.releaseNotes)
    ? info.releaseNotes.map((note) => `${note.version}: ${note.note ?? ''}`).join('\n\n')
    : (info.releaseNotes ?? null);
  return {
    version: info.version,
    releaseName: info.releaseName ?? null,
    releaseNotes: notes?.slice(0, 50_000) ?? null,
    releaseDate: info.releaseDate ?? null,
  };
}
