import { EventEmitter } from 'node:events';
import { utilityProcess, type UtilityProcess } from 'electron';
import type { ChildHandle, ChildLauncher } from '../core/desktop';

/**
 * Core's child entries (the model host) as Electron utility processes. The RunAsNode fuse is off, so
 * `child_process.fork` cannot run Node from the app's binary; a utility process is Node in Electron's
 * own helper, signed with the app. Messages use structured clone, like `fork`'s advanced serialization.
 */
export const launchUtilityChild: ChildLauncher = (entryPath, args) =>
  new UtilityChild(utilityProcess.fork(entryPath, args, { stdio: 'pipe', serviceName: 'Quire model host' }));

class UtilityChild extends EventEmitter implements ChildHandle {
  private running = true;
  exitCode: number | null = null;
  /** A utility process reports an exit code only. */
  readonly signalCode = null;

  constructor(private readonly child: UtilityProcess) {
    super();
    child.on('message', (message: unknown) => this.emit('message', message));
    child.on('exit', (code) => {
      this.running = false;
      this.exitCode = code;
      this.emit('exit', code, null);
    });
    // Electron emits 'exit' after this too; the error only says why.
    child.on('error', (type, location) => this.emit('error', new Error(`${type} at ${location}`)));
  }

  get connected(): boolean {
    return this.running;
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get stdout() {
    return this.child.stdout;
  }

  get stderr() {
    return this.child.stderr;
  }

  send(message: unknown, callback?: (error: Error | null) => void): boolean {
    if (!this.running) {
      callback?.(new Error('the utility process has exited'));
      return false;
    }
    this.child.postMessage(message);
    callback?.(null);
    return true;
  }

  /** A utility process has no channel to close apart from itself: ending the channel ends it. */
  disconnect(): void {
    if (this.running) this.child.kill();
  }

  /** A utility process takes no signal: any kill ends it. */
  kill(): boolean {
    return this.child.kill();
  }
}
