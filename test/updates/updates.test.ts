/*
 * Updates against a stand-in GitHub release feed (test/standins/releaseFeedStandIn.ts) with the real
 * electron-updater: the GitHub provider, the download with its sha512 check, and Windows' signature
 * step. Its Windows updater runs here in electron-updater's own test mode (`_testOnlyOptions`, which
 * picks latest.yml as on Windows and skips differential downloads), downloading over Node's http
 * instead of Electron's net (test/standins/nodeUpdateHttp.ts). The signature verifier is
 * Windows-only (PowerShell's Get-AuthenticodeSignature), so a stand-in verifier gives the verdict
 * and the test checks the updater obeys it.
 */
import { createHash, randomBytes } from 'node:crypto';
import { statSync } from 'node:fs';
import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { NsisUpdater, type AppUpdater } from 'electron-updater';
import type { AppAdapter } from 'electron-updater/out/AppAdapter';
import { GitHubProvider } from 'electron-updater/out/providers/GitHubProvider';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UpdateService } from '../../src/core/updates/updateService';
import { createAppUpdater } from '../../src/main/appUpdater';
import type { UpdateStatus } from '../../src/shared/domain/updates';
import { quireRejection } from '../helpers/rejection';
import { tempDir } from '../helpers/shared';
import { nodeUpdateHttp } from '../standins/nodeUpdateHttp';
import { startReleaseFeedStandIn, type ReleaseFeedStandIn } from '../standins/releaseFeedStandIn';

const installers = {
  'Quire-Setup-0.2.0.exe': randomBytes(300_000),
  'Quire-0.2.0-arm64-mac.zip': randomBytes(200_000),
  'Quire-0.2.0-arm64.dmg': randomBytes(250_000),
  'Quire-0.2.0.AppImage': randomBytes(100_000),
};

let dir: Awaited<ReturnType<typeof tempDir>>;
let feed: ReleaseFeedStandIn | undefined;
beforeEach(async () => {
  dir = await tempDir('quire-updates-');
});
afterEach(async () => {
  await feed?.close();
  feed = undefined;
  await dir.cleanup();
});

async function startFeed(wrongSha512 = false): Promise<ReleaseFeedStandIn> {
  feed = await startReleaseFeedStandIn({
    owner: 'quire-app',
    repo: 'quire',
    version: '0.2.0',
    notes: 'Faster page search.',
    installers,
    wrongSha512,
  });
  return feed;
}

function installedApp(version = '0.1.0'): AppAdapter {
  return {
    version,
    name: 'Quire',
    isPackaged: true,
    appUpdateConfigPath: join(dir.path, 'app-update.yml'),
    userDataPath: join(dir.path, 'user-data'),
    baseCachePath: join(dir.path, 'cache'),
    whenReady: async () => undefined,
    relaunch: () => undefined,
    quit: () => undefined,
    onQuit: () => undefined,
  };
}

/** Windows' updater as an installed 0.1.0 would build it from the app-update.yml electron-builder writes. */
async function windowsUpdater(
  host: string,
  verify: (publishers: string[], file: string) => Promise<string | null>,
): Promise<NsisUpdater> {
  await writeFile(
    join(dir.path, 'app-update.yml'),
    [
      'owner: quire-app',
      'repo: quire',
      'provider: github',
      `host: ${host}`,
      'protocol: http',
      'updaterCacheDirName: quire-updater',
      'publisherName:',
      '  - Quire',
      '',
    ].join('\n'),
  );
  const updater = new NsisUpdater(null, installedApp());
  Object.assign(updater, {
    httpExecutor: nodeUpdateHttp(),
    _testOnlyOptions: { platform: 'win32', isUseDifferentialDownload: false },
  });
  updater.logger = null;
  updater.verifyUpdateCodeSignature = verify;
  return updater;
}

function service(updater: AppUpdater | null, statuses: UpdateStatus[] = []): UpdateService {
  return new UpdateService({
    dataDir: join(dir.path, 'data'),
    updater: updater ? createAppUpdater(updater) : null,
    onStatus: (status) => statuses.push(status),
  });
}

const signedByQuire = async () => null;

describe('updates', () => {
  it('are off by default: nothing reaches the feed and a check is refused', async () => {
    const stand = await startFeed();
    const updates = service(await windowsUpdater(stand.host, signedByQuire));
    await updates.load();
    expect(updates.status()).toMatchObject({
      enabled: false,
      phase: 'off',
      offer: null,
      currentVersion: '0.1.0',
    });
    expect(await quireRejection(updates.check())).toMatchObject({ code: 'forbidden' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(stand.requests).toEqual([]);
    updates.dispose();
  });

  it('turned on, checks at once and offers the new version without downloading it; the setting persists', async () => {
    const stand = await startFeed();
    const statuses: UpdateStatus[] = [];
    const updates = service(await windowsUpdater(stand.host, signedByQuire), statuses);
    await updates.load();
    const status = await updates.setEnabled(true);
    expect(status).toMatchObject({ enabled: true, phase: 'available', error: null });
    expect(status.offer).toMatchObject({ version: '0.2.0', releaseDate: '2026-11-20T09:30:00.000Z' });
    expect(status.offer?.releaseNotes).toContain('Faster page search.');
    expect(statuses.map((s) => s.phase)).toEqual(['idle', 'checking', 'available']);
    expect(stand.assetRequests).toEqual(['latest.yml']);
    updates.dispose();

    const again = service(await windowsUpdater(stand.host, signedByQuire));
    await again.load();
    expect(again.status().enabled).toBe(true);
    again.dispose();
  });

  it('downloads only when asked, verifies sha512 and the signature, then waits to be installed', async () => {
    const stand = await startFeed();
    const verified: Array<{ publishers: string[]; bytes: number }> = [];
    const updater = await windowsUpdater(stand.host, async (publishers, file) => {
      verified.push({ publishers, bytes: statSync(file).size });
      return null;
    });
    const updates = service(updater);
    await updates.load();
    await updates.setEnabled(true);
    expect(stand.assetRequests).not.toContain('Quire-Setup-0.2.0.exe');

    const status = await updates.download();
    expect(status).toMatchObject({ phase: 'downloaded', percent: 100, error: null });
    expect(stand.assetRequests.filter((a) => a === 'Quire-Setup-0.2.0.exe')).toHaveLength(1);
    expect(verified).toEqual([{ publishers: ['Quire'], bytes: installers['Quire-Setup-0.2.0.exe'].length }]);
    updates.dispose();
  });

  it('refuses an installer whose signature is not the publisher’s, and keeps nothing', async () => {
    const stand = await startFeed();
    const updates = service(await windowsUpdater(stand.host, async () => 'signed by Someone Else'));
    await updates.load();
    await updates.setEnabled(true);
    const status = await updates.download();
    expect(status.phase).toBe('error');
    expect(status.error).toContain('not signed by the application owner');
    expect(await pendingFiles()).toEqual([]);
    updates.dispose();
  });

  it('refuses a download whose sha512 is not the one latest.yml states', async () => {
    const stand = await startFeed(true);
    const updates = service(await windowsUpdater(stand.host, signedByQuire));
    await updates.load();
    await updates.setEnabled(true);
    const status = await updates.download();
    expect(status.phase).toBe('error');
    expect(status.error).toMatch(/sha512 checksum mismatch/);
    expect(await pendingFiles()).toEqual([]);
    updates.dispose();
  });

  it("reads macOS's latest-mac.yml: the zip Squirrel.Mac installs, with its sha512", async () => {
    const stand = await startFeed();
    const updater = await windowsUpdater(stand.host, signedByQuire);
    const provider = new GitHubProvider(
      { provider: 'github', owner: 'quire-app', repo: 'quire', host: stand.host, protocol: 'http' },
      updater,
      { platform: 'darwin', executor: nodeUpdateHttp() as never, isUseMultipleRangeRequest: false },
    );
    const info = await provider.getLatestVersion();
    expect(info.version).toBe('0.2.0');
    const [zip] = provider.resolveFiles(info);
    expect(zip?.url.href).toBe(
      `http://${stand.host}/quire-app/quire/releases/download/v0.2.0/Quire-0.2.0-arm64-mac.zip`,
    );
    expect(zip?.info.sha512).toBe(
      createHash('sha512').update(installers['Quire-0.2.0-arm64-mac.zip']).digest('base64'),
    );
    expect(stand.assetRequests).toEqual(['latest-mac.yml']);
  });

  it('says why where Quire cannot update itself', async () => {
    const updates = service(null);
    await updates.load();
    await updates.setEnabled(true);
    expect(updates.status().unsupportedReason).toMatch(/Only the installed desktop app/);
    expect(await quireRejection(updates.check())).toMatchObject({ code: 'unsupported' });
    updates.dispose();
  });
});

/** Files electron-updater left in its download folder. */
async function pendingFiles(): Promise<string[]> {
  const pending = join(dir.path, 'cache', 'quire-updater', 'pending');
  return (await readdir(pending).catch(() => [])).filter((name) => name !== 'update-info.json');
}
