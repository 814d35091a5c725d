/**
 * Whether a host process holds its model loaded, and who listens for changes: the memory budget
 * counts an in-process model only while it is loaded.
 */
export class LoadedState {
  private loaded: boolean;
  private readonly listeners = new Set<(loaded: boolean) => void>();

  constructor(loaded: boolean) {
    this.loaded = loaded;
  }

  get value(): boolean {
    return this.loaded;
  }

  set(loaded: boolean): void {
    if (loaded === this.loaded) return;
    this.loaded = loaded;
    for (const listener of this.listeners) listener(loaded);
  }

  onChange(listener: (loaded: boolean) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Runs `work`, then reads the host again: a call can reload the model or end its process. */
  async track<T>(work: () => Promise<T>, isLoaded: () => boolean): Promise<T> {
    try {
      return await work();
    } finally {
      this.set(isLoaded());
    }
  }
}
