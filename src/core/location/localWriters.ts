import { mkdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** What this machine notes about a writer of its own: the process, and where its number means that process. */
interface WriterNote {
  pid: number;
  processSpace: string | null;
}

export interface LocalWritersOptions {
  /** Where the notes are kept (default: `quire-writers` in the system's temporary folder). */
  folder?: string;
  /** Whether a process number of this process space is running (default: a signal 0 probe). */
  isAlive?: (pid: number) => boolean;
  /** Which process space this process's numbers belong to (default: Linux's PID namespace and boot). */
  processSpace?: () => string | null;
  /** This process's number (default: `process.pid`). */
  pid?: number;
}

/**
 * The writer ids this machine's own processes took a lease under. A lease names its writer by a random
 * id; only the machine that noted an id can tell that its process ended, and only from the same process
 * space (a PID namespace reuses numbers), so a writer elsewhere with the same host name is never
 * mistaken for a dead one here: its lease goes stale by time alone.
 */
export class LocalWriters {
  private readonly folder: string;
  private readonly isAlive: (pid: number) => boolean;
  private readonly processSpace: () => string | null;
  private readonly pid: number;

  constructor(options: LocalWritersOptions = {}) {
    this.folder = options.folder ?? join(tmpdir(), 'quire-writers');
    this.isAlive = options.isAlive ?? processAlive;
    this.processSpace = options.processSpace ?? currentProcessSpace;
    this.pid = options.pid ?? process.pid;
  }

  /**
   * This process writes under `id`. A note that cannot be written costs only the quick takeover
   * after a crash (the lease then goes stale by time), so it never stops the writer.
   */
  noteMine(id: string): void {
    const note: WriterNote = { pid: this.pid, processSpace: this.processSpace() };
    try {
      mkdirSync(this.folder, { recursive: true });
      writeFileSync(this.file(id), JSON.stringify(note));
    } catch {
      // See above: the lease still holds.
    }
  }

  forget(id: string): void {
    try {
      rmSync(this.file(id), { force: true });
    } catch {
      // A note left behind names a process that is gone: it only lets a lease be taken over sooner.
    }
  }

  /** True only when a writer of this machine took a lease under `id` and its process is gone. */
  ended(id: string): boolean {
    const note = this.read(id);
    if (!note || note.processSpace === null || note.processSpace !== this.processSpace()) return false;
    return note.pid !== this.pid && !this.isAlive(note.pid);
  }

  /** True only when a writer of this machine took a lease under `id` and its process still runs. */
  running(id: string): boolean {
    const note = this.read(id);
    if (!note || note.processSpace === null || note.processSpace !== this.processSpace()) return false;
    return note.pid === this.pid || this.isAlive(note.pid);
  }

  private read(id: string): WriterNote | null {
    try {
      return JSON.parse(readFileSync(this.file(id), 'utf8')) as WriterNote;
    } catch {
      return null;
    }
  }

  private file(id: string): string {
    // Ids come from the store: only the characters of a UUID name a file.
    return join(this.folder, `${id.replace(/[^0-9a-f-]/gi, '_')}.json`);
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Linux names a process space by its PID namespace and the boot; elsewhere (macOS, Windows) a process
 * number is the machine's own, so the notes' folder, local to the machine, is enough.
 */
function currentProcessSpace(): string | null {
  if (process.platform !== 'linux') return process.platform;
  try {
    const boot = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    return `${readlinkSync('/proc/self/ns/pid')} ${boot}`;
  } catch {
    return null;
  }
}
