/*
 * The parent side of an in-process model host: starts the child on first use, matches replies to
 * requests by id, turns aborts and time-outs into `cancel` messages, and turns a dying child into one
 * clear error for every pending call. The next call starts a fresh child. Each runtime (llama.cpp,
 * ONNX Runtime, the vision model) names its child entry and its requests; the rest is here.
 */
import { QuireError } from '../../../shared/errors';
import { forkChild, type ChildHandle } from '../../common/entryPoints';
import type { HostCancel, HostReply, HostRequestBase } from './protocol';

export interface HostClientOptions<Request extends HostRequestBase> {
  /** The child's module: `import.meta.url` of the caller and the path relative to it. */
  entry: { callerUrl: string; path: string };
  /** What the host serves, in messages (the model's path). */
  subject: string;
  /** The request that loads the model, sent once after the child starts. */
  load: DistributiveOmit<Request, 'id'>;
  /** Limit for starting the child and loading the model. Defaults to 120 s: large models load slowly from disk. */
  loadTimeoutMs?: number;
  /** How long a cancelled or timed-out call may take to stop before the child is killed. Defaults to 5 s. */
  stopGraceMs?: number;
  /**
   * The same for a call cancelled while the host carries on serving others; defaults to `stopGraceMs`.
   * Killing the host then fails every other call it holds, so a runtime that checks for cancellation
   * only between long steps needs longer.
   */
  cancelGraceMs?: number;
  /** A sentence added to the error when the child dies of this signal (e.g. what a SIGABRT means). */
  signalHint?: (signal: NodeJS.Signals) => string | null;
}

export interface HostCallOptions {
  signal?: AbortSignal;
  /** Rejects with a `timeout` error after this long and stops the work in the child. */
  timeoutMs?: number;
  onToken?: (text: string) => void;
}

export type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

interface Pending {
  what: string;
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
  onToken?: (text: string) => void;
}

const STDERR_TAIL_CHARS = 4000;

export class HostClient<Request extends HostRequestBase, LoadInfo> {
  private child: ChildHandle | null = null;
  private loading: Promise<LoadInfo> | null = null;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  /** Ids the parent gave up on (aborted, timed out): their late replies are dropped. */
  private readonly abandoned = new Map<number, NodeJS.Timeout>();
  private stderrTail = '';
  private disposed = false;

  constructor(private readonly hostOptions: HostClientOptions<Request>) {}

  protected get subject(): string {
    return this.hostOptions.subject;
  }

  /** Starts the child and loads the model unless that is already done or under way. */
  ensureLoaded(): Promise<LoadInfo> {
    if (this.disposed)
      return Promise.reject(new QuireError('model_unavailable', 'The model host was disposed.'));
    this.loading ??= this.startAndLoad().catch((error: unknown) => {
      this.loading = null;
      throw error;
    });
    return this.loading;
  }

  get isLoaded(): boolean {
    return this.child !== null && this.loading !== null;
  }

  /** Loads the model if needed, then runs one request in the child. */
  protected async work(
    request: DistributiveOmit<Request, 'id'>,
    options: HostCallOptions = {},
  ): Promise<unknown> {
    if (options.signal?.aborted) throw cancelledError();
    await this.ensureLoaded();
    return this.send(request, options);
  }

  /** Frees the model but keeps nothing else: the next call loads it again. */
  async unload(): Promise<void> {
    if (!this.child) return;
    await this.stopChild();
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    await this.stopChild();
  }

  private async startAndLoad(): Promise<LoadInfo> {
    const child = await this.startChild();
    const timeoutMs = this.hostOptions.loadTimeoutMs ?? 120_000;
    try {
      return (await this.send(this.hostOptions.load, { timeoutMs }, child)) as LoadInfo;
    } catch (error) {
      // A child that could not load its model holds nothing worth keeping, and a live IPC channel would
      // keep a one-shot command from exiting: end it before reporting the failure.
      await this.endChild(child);
      throw error;
    }
  }

  private async startChild(): Promise<ChildHandle> {
    if (this.child) await this.endChild(this.child);
    this.stderrTail = '';
    const { callerUrl, path } = this.hostOptions.entry;
    const child = forkChild(callerUrl, path, [], {
      serialization: 'advanced',
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    this.child = child;
    const keepTail = (chunk: Buffer) => {
      this.stderrTail = (this.stderrTail + chunk.toString('utf8')).slice(-STDERR_TAIL_CHARS);
    };
    child.stderr?.on('data', keepTail);
    child.stdout?.on('data', keepTail);
    child.on('message', (message) => this.onReply(message as HostReply));
    child.on('exit', (code, signal) => this.onExit(child, code, signal));
    child.on('error', (error) => this.failAll(child, `could not be started: ${error.message}`));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        cleanup();
        child.kill('SIGKILL');
        reject(new QuireError('timeout', `The model host for ${this.subject} did not start in time.`));
      }, this.hostOptions.loadTimeoutMs ?? 120_000);
      const onMessage = (message: unknown) => {
        if ((message as HostReply).type !== 'ready') return;
        cleanup();
        resolve(child);
      };
      const onExit = (code: number | null, signal: NodeJS.Signals | null) => {
        cleanup();
        reject(this.crashError('starting', code, signal));
      };
      const cleanup = () => {
        clearTimeout(timer);
        child.off('message', onMessage);
        child.off('exit', onExit);
      };
      child.on('message', onMessage);
      child.on('exit', onExit);
    });
  }

  private send(
    request: DistributiveOmit<Request, 'id'> | { type: 'dispose' },
    options: HostCallOptions,
    child: ChildHandle | null = this.child,
  ): Promise<unknown> {
    if (!child?.connected)
      return Promise.reject(
        new QuireError('model_failed', `The model host for ${this.subject} is not running.`),
      );
    const id = this.nextId++;
    const what = request === this.hostOptions.load ? 'loading the model' : `a ${request.type} call`;
    return new Promise((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const settle = () => {
        clearTimeout(timer);
        options.signal?.removeEventListener('abort', onAbort);
        this.pending.delete(id);
      };
      const giveUp = (error: QuireError) => {
        settle();
        this.abandon(child, id);
        reject(error);
      };
      const onAbort = () => giveUp(cancelledError());
      this.pending.set(id, {
        what,
        resolve: (value) => (settle(), resolve(value)),
        reject: (error) => (settle(), reject(error)),
        ...(options.onToken ? { onToken: options.onToken } : {}),
      });
      options.signal?.addEventListener('abort', onAbort, { once: true });
      if (options.timeoutMs !== undefined) {
        const seconds = (options.timeoutMs / 1000).toFixed(1);
        timer = setTimeout(
          () =>
            giveUp(
              new QuireError(
                'timeout',
                `${capitalize(what)} on ${this.subject} took longer than ${seconds} s.`,
              ),
            ),
          options.timeoutMs,
        );
      }
      child.send({ ...request, id }, (error) => {
        if (error)
          this.pending
            .get(id)
            ?.reject(
              new QuireError(
                'model_failed',
                `The model host for ${this.subject} stopped listening: ${error.message}`,
              ),
            );
      });
    });
  }

  /** Asks the child to stop request `id`; a child that does not answer within the grace period is killed. */
  private abandon(child: ChildHandle, id: number): void {
    if (!child.connected) return;
    child.send({ type: 'cancel', targetId: id } satisfies HostCancel, () => undefined);
    const watchdog = setTimeout(
      () => {
        this.abandoned.delete(id);
        if (this.child === child) child.kill('SIGKILL');
      },
      this.hostOptions.cancelGraceMs ?? this.hostOptions.stopGraceMs ?? 5000,
    );
    watchdog.unref();
    this.abandoned.set(id, watchdog);
  }

  private onReply(reply: HostReply): void {
    if (reply.type === 'ready') return;
    const abandoned = this.abandoned.get(reply.id);
    if (abandoned && reply.type !== 'token') {
      clearTimeout(abandoned);
      this.abandoned.delete(reply.id);
      return;
    }
    const pending = this.pending.get(reply.id);
    if (!pending) return;
    if (reply.type === 'token') pending.onToken?.(reply.text);
    else if (reply.type === 'result') pending.resolve(reply.value);
    else pending.reject(new QuireError(reply.error.code, reply.error.message, { modelPath: this.subject }));
  }

  private onExit(child: ChildHandle, code: number | null, signal: NodeJS.Signals | null): void {
    if (this.child !== child) return;
    const working = [...this.pending.values()].map((p) => p.what);
    this.failAll(child, '', this.crashError(working[0] ?? 'idle', code, signal));
  }

  private failAll(child: ChildHandle, reason: string, error?: QuireError): void {
    if (this.child !== child) return;
    this.child = null;
    this.loading = null;
    for (const timer of this.abandoned.values()) clearTimeout(timer);
    this.abandoned.clear();
    const failure = error ?? new QuireError('model_failed', `The model host for ${this.subject} ${reason}`);
    for (const pending of [...this.pending.values()]) pending.reject(failure);
    this.pending.clear();
  }

  private crashError(during: string, code: number | null, signal: NodeJS.Signals | null): QuireError {
    const how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
    const cause = lastMeaningfulLine(this.stderrTail);
    const hint = signal ? this.hostOptions.signalHint?.(signal) : null;
    const message =
      `The model host for ${this.subject} ${how} while ${during}` +
      (cause ? `: ${cause}.` : '.') +
      (hint ? ` ${hint}` : '');
    return new QuireError('model_failed', message, {
      modelPath: this.subject,
      exitCode: code,
      signal,
      log: this.stderrTail,
    });
  }

  /** Ends a child without asking it anything: closing the channel makes it exit, SIGKILL if it does not. */
  private async endChild(child: ChildHandle): Promise<void> {
    if (this.child === child) this.failAll(child, 'was stopped.');
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    if (child.connected) child.disconnect();
    const kill = setTimeout(() => child.kill('SIGKILL'), this.hostOptions.stopGraceMs ?? 5000);
    await exited;
    clearTimeout(kill);
  }

  private async stopChild(): Promise<void> {
    const child = this.child;
    if (!child) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    if (child.connected) {
      await this.send({ type: 'dispose' }, { timeoutMs: this.hostOptions.stopGraceMs ?? 5000 }, child).catch(
        () => undefined,
      );
    }
    const kill = setTimeout(() => child.kill('SIGKILL'), this.hostOptions.stopGraceMs ?? 5000);
    await exited;
    clearTimeout(kill);
  }
}

export function cancelledError(): QuireError {
  return new QuireError('cancelled', 'Cancelled.');
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The line of the child's log most likely to explain a crash, e.g. llama.cpp's GGML_ASSERT message. */
function lastMeaningfulLine(log: string): string | null {
  const lines = log
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  const telling = lines.filter((line) => /GGML_ASSERT|error|failed|abort/i.test(line));
  return telling.at(-1) ?? lines.at(-1) ?? null;
}
