import type { LoadedState } from './loadedState';

/** The part of a host client this needs: whether its model is loaded, and a way to end its process. */
export interface ReleasableHost {
  readonly isLoaded: boolean;
  unload(): Promise<void>;
}

/**
 * Runs calls on a host and ends its process once no call has come for `idleUnloadMs` (never when
 * unset), keeping `loaded` in step so the memory budget stops counting a released model. A call that
 * comes while the host is being ended waits for that, then loads the model again.
 */
export class IdleRelease {
  private inFlight = 0;
  private idleTimer: NodeJS.Timeout | null = null;
  private unloading: Promise<void> | null = null;

  constructor(
    private readonly host: ReleasableHost,
    private readonly loaded: LoadedState,
    private readonly idleUnloadMs: number | undefined,
  ) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    this.cancelTimer();
    await this.unloading;
    this.inFlight++;
    try {
      return await this.loaded.track(work, () => this.host.isLoaded);
    } finally {
      this.inFlight--;
      this.scheduleRelease();
    }
  }

  /** Stops the idle timer; the owner ends the host itself. */
  dispose(): void {
    this.cancelTimer();
  }

  private cancelTimer(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
  }

  /** Starts the idle countdown (a freshly loaded host with no call yet). */
  scheduleRelease(): void {
    if (this.idleUnloadMs === undefined || this.inFlight > 0 || this.idleTimer) return;
    this.idleTimer = setTimeout(() => {
      this.idleTimer = null;
      if (this.inFlight > 0) return;
      this.unloading = this.host.unload().finally(() => {
        this.unloading = null;
        this.loaded.set(this.host.isLoaded);
      });
    }, this.idleUnloadMs);
    this.idleTimer.unref();
  }
}
