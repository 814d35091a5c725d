/*
 * Updates of the installed app, behind a setting that is off until the user turns it on. Off, nothing
 * contacts the release feed. On, it checks at start and every few hours and says what it found; it
 * downloads only when the user asks (`download()`), and installs only when asked again (`install()`).
 * The updater itself (electron-updater in the desktop app) is a port, so core never imports Electron.
 */
import { join } from 'node:path';
import type { UpdateOffer, UpdatePhase, UpdateStatus } from '../../shared/domain/updates';
import { QuireError } from '../../shared/errors';
import { readJsonOr, writeJsonAtomic } from '../common/atomicFile';

/** What the desktop app's updater does for the service. Every call verifies what it fetches. */
export interface Updater {
  readonly currentVersion: string;
  /** Reads the release feed; the newer version offered, or null when this one is the newest. */
  check(): Promise<UpdateOffer | null>;
  /**
   * Downloads the version `check` offered and verifies it (sha512 from the feed; on Windows and macOS
   * the code signature too). Rejects, leaving nothing installed, when verification fails.
   */
  download(onPercent: (percent: number) => void, signal: AbortSignal): Promise<void>;
  /** Quits and installs the downloaded version. */
  install(): void;
}

export interface UpdateServiceOptions {
  dataDir: string;
  /** Absent where Quire cannot update itself: the CLI, browser mode, a development build. */
  updater: Updater | null;
  onStatus: (status: UpdateStatus) => void;
  /** Time between checks while they are on. Defaults to 6 hours. */
  checkIntervalMs?: number;
}

const SIX_HOURS_MS = 6 * 60 * 60 * 1000;

export class UpdateService {
  private enabled = false;
  private phase: UpdatePhase = 'off';
  private offer: UpdateOffer | null = null;
  private percent: number | null = null;
  private error: string | null = null;
  private checkedAt: string | null = null;
  private timer: NodeJS.Timeout | undefined;
  private downloading: AbortController | null = null;
  private readonly settingsPath: string;

  constructor(private readonly options: UpdateServiceOptions) {
    this.settingsPath = join(options.dataDir, 'settings', 'updates.json');
  }

  /** Reads the setting; when checks are on, checks now and schedules the next ones. */
  async load(): Promise<void> {
    const saved = await readJsonOr(this.settingsPath, { enabled: false });
    this.enabled = (saved as { enabled?: unknown }).enabled === true;
    this.phase = this.enabled ? 'idle' : 'off';
    this.schedule();
    if (this.enabled && this.options.updater) void this.check().catch(() => undefined);
  }

  status(): UpdateStatus {
    return {
      enabled: this.enabled,
      unsupportedReason: this.options.updater
        ? null
        : 'Only the installed desktop app updates itself; this copy of Quire runs from the command line, a browser or a development build.',
      phase: this.phase,
      currentVersion: this.options.updater?.currentVersion ?? null,
      offer: this.offer,
      percent: this.percent,
      error: this.error,
      checkedAt: this.checkedAt,
    };
  }

  async setEnabled(enabled: boolean): Promise<UpdateStatus> {
    await writeJsonAtomic(this.settingsPath, { enabled });
    this.enabled = enabled;
    if (!enabled) {
      this.downloading?.abort();
      this.offer = null;
      this.error = null;
      this.update('off');
    } else if (this.phase === 'off') {
      this.update('idle');
    }
    this.schedule();
    if (enabled && this.options.updater) return this.check();
    return this.status();
  }

  /** Asks the feed for a newer version. Refused while checks are off. */
  async check(): Promise<UpdateStatus> {
    const updater = this.requireUpdater();
    if (this.phase === 'checking' || this.phase === 'downloading' || this.phase === 'downloaded') {
      return this.status();
    }
    this.update('checking');
    try {
      this.offer = await updater.check();
      this.error = null;
      this.checkedAt = new Date().toISOString();
      this.update(this.offer ? 'available' : 'up-to-date');
    } catch (error) {
      this.fail('Could not check for updates', error);
    }
    return this.status();
  }

  /** The user's consent: downloads and verifies the offered version. */
  async download(): Promise<UpdateStatus> {
    const updater = this.requireUpdater();
    if (this.phase !== 'available' || !this.offer) {
      throw new QuireError('not_found', 'There is no new version to download: check for updates first.');
    }
    const controller = new AbortController();
    this.downloading = controller;
    this.percent = 0;
    this.update('downloading');
    try {
      await updater.download((percent) => {
        this.percent = Math.max(0, Math.min(100, percent));
        this.options.onStatus(this.status());
      }, controller.signal);
      this.percent = 100;
      this.update('downloaded');
    } catch (error) {
      this.percent = null;
      if (controller.signal.aborted) this.update(this.enabled ? 'idle' : 'off');
      else this.fail(`Version ${this.offer.version} was not installed`, error);
    } finally {
      this.downloading = null;
    }
    return this.status();
  }

  install(): void {
    const updater = this.requireUpdater();
    if (this.phase !== 'downloaded') {
      throw new QuireError('not_found', 'No downloaded update is waiting to be installed.');
    }
    updater.install();
  }

  dispose(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    this.downloading?.abort();
  }

  private requireUpdater(): Updater {
    if (!this.options.updater) throw new QuireError('unsupported', this.status().unsupportedReason!);
    if (!this.enabled) {
      throw new QuireError('forbidden', 'Update checks are off: turn them on in Settings first.');
    }
    return this.options.updater;
  }

  private schedule(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    if (!this.enabled || !this.options.updater) return;
    this.timer = setInterval(
      () => void this.check().catch(() => undefined),
      this.options.checkIntervalMs ?? SIX_HOURS_MS,
    );
    this.timer.unref();
  }

  private fail(what: string, error: unknown): void {
    // electron-updater's messages can carry a whole feed or stack; the first line says what happened.
    const reason = (error instanceof Error ? error.message : String(error)).split('\n')[0]!.slice(0, 500);
    this.error = `${what}: ${reason}`;
    this.update('error');
  }

  private update(phase: UpdatePhase): void {
    this.phase = phase;
    this.options.onStatus(this.status());
  }
}
