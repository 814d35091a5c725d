import { fork, type ForkOptions } from 'node:child_process';
import { createRequire } from 'node:module';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';
import { ALLOCATOR_ENV } from './allocator';

/*
 * Starting worker threads and child processes from both source and the built app.
 *
 * From source (tests, scripts run through tsx) an entry is a `.ts` file: a child process gets tsx's
 * loader through --import, and a worker starts in a tiny bootstrap that registers tsx first, because
 * Node 20 does not apply --import hooks inside workers. Built, every `*.worker.ts` and `*.child.ts` is
 * emitted as `<name>.js` beside the bundle that starts it: `out/main/` for the app, `out/cli/` for the
 * command line (packages/cli/build.mjs).
 */

function isSource(callerUrl: string): boolean {
  return fileURLToPath(callerUrl).endsWith('.ts');
}

function builtEntry(callerUrl: string, sourceRelativePath: string): string {
  return join(dirname(fileURLToPath(callerUrl)), basename(sourceRelativePath).replace(/\.ts$/, '.js'));
}

function sourceEntry(callerUrl: string, sourceRelativePath: string): string {
  return resolve(dirname(fileURLToPath(callerUrl)), sourceRelativePath);
}

function tsxLoaderUrl(): string {
  const tsxPackage = createRequire(import.meta.url).resolve('tsx/package.json');
  return pathToFileURL(join(dirname(tsxPackage), 'dist', 'loader.mjs')).href;
}

/** Starts `sourceRelativePath` (relative to the caller's module) in a worker thread. */
export function startWorker(
  callerUrl: string,
  sourceRelativePath: string,
  options: WorkerOptions = {},
): Worker {
  if (!isSource(callerUrl)) return new Worker(builtEntry(callerUrl, sourceRelativePath), options);
  const bootstrap = new URL('./tsWorkerBootstrap.mjs', import.meta.url);
  return new Worker(bootstrap, { ...options, argv: [sourceEntry(callerUrl, sourceRelativePath)] });
}

/**
 * What a parent needs of a child process with a message channel: Node's ChildProcess has it, and so
 * does the Electron app's adapter around a utility process.
 */
export interface ChildHandle {
  /** The process id, once started (for the memory budget). */
  readonly pid?: number | undefined;
  readonly connected: boolean;
  /** Null while it runs. */
  readonly exitCode: number | null;
  readonly signalCode: NodeJS.Signals | null;
  readonly stdout: NodeJS.ReadableStream | null;
  readonly stderr: NodeJS.ReadableStream | null;
  /** `callback` hears whether the message left (an error when the channel is already closed). */
  send(message: unknown, callback?: (error: Error | null) => void): boolean;
  /** Closes the message channel; a child that serves only its parent then exits. */
  disconnect(): void;
  kill(signal?: NodeJS.Signals): boolean;
  on(event: 'message', listener: (message: unknown) => void): this;
  on(event: 'exit', listener: (code: number | null, signal: NodeJS.Signals | null) => void): this;
  on(event: 'error', listener: (error: Error) => void): this;
  once(event: 'exit', listener: (code: number | null, signal: NodeJS.Signals | null) => void): this;
  off(event: 'message', listener: (message: unknown) => void): this;
  off(event: 'exit', listener: (code: number | null, signal: NodeJS.Signals | null) => void): this;
}

/** Starts a built child entry (an `out/main/*.js` file) some other way than `fork`. */
export type ChildLauncher = (entryPath: string, args: string[]) => ChildHandle;

let childLauncher: ChildLauncher | null = null;

/**
 * The Electron app starts child entries as utility processes: its RunAsNode fuse is off, so `fork`,
 * which runs the Electron binary as Node, cannot start them there. Set once at start-up.
 */
export function useChildLauncher(launcher: ChildLauncher | null): void {
  childLauncher = launcher;
}

/**
 * Starts `sourceRelativePath` (relative to the caller's module) as a child process with a message
 * channel: forked Node (with `options`), or through the launcher the host set.
 */
export function forkChild(
  callerUrl: string,
  sourceRelativePath: string,
  args: string[] = [],
  options: ForkOptions = {},
): ChildHandle {
  // A forked child's allocator returns large freed blocks to the system (common/allocator.ts).
  const env = { ...ALLOCATOR_ENV, ...(options.env ?? process.env) };
  if (!isSource(callerUrl)) {
    const entry = builtEntry(callerUrl, sourceRelativePath);
    return tracked(
      childLauncher ? childLauncher(entry, args) : fork(entry, args, { ...options, env }),
      entry,
    );
  }
  const execArgv = [...(options.execArgv ?? []), '--import', tsxLoaderUrl()];
  const entry = sourceEntry(callerUrl, sourceRelativePath);
  return tracked(fork(entry, args, { ...options, env, execArgv }), entry);
}

/** Children started here and not yet exited, with their entry: a process that must stop now ends them itself. */
const liveChildren = new Map<ChildHandle, string>();

function tracked(child: ChildHandle, entry: string): ChildHandle {
  liveChildren.set(child, basename(entry).replace(/\.(ts|js)$/, ''));
  child.once('exit', () => liveChildren.delete(child));
  return child;
}

/** The children running now: process id and entry name (`modelHost.child`), for the memory budget. */
export function liveChildProcesses(): Array<{ pid: number; entry: string }> {
  return [...liveChildren]
    .filter(([child]) => child.pid !== undefined)
    .map(([child, entry]) => ({ pid: child.pid!, entry }));
}

/**
 * Kills every child still running, for a process about to exit before its services finished their
 * own orderly dispose(): a child outliving its parent would hold memory (a loaded model) for nothing.
 */
export function killLiveChildren(): number {
  const count = liveChildren.size;
  for (const child of liveChildren.keys()) child.kill('SIGKILL');
  liveChildren.clear();
  return count;
}
