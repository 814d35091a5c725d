/*
 * Resident memory of a process and everything it started, read from the operating system: /proc on
 * Linux, `ps` elsewhere. Worker threads share their process's memory; child processes (model hosts,
 * Electron's helpers) are counted each on its own.
 */
import { execFile } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { platform } from 'node:os';
import { promisify } from 'node:util';

export interface ProcessMemory {
  pid: number;
  parentPid: number;
  /** The program's name as the system shows it (`node`, `quire`, ...). */
  name: string;
  residentBytes: number;
}

const run = promisify(execFile);

/** `rootPid` and its descendants; empty when the system cannot be read. */
export async function readProcessTree(rootPid: number = process.pid): Promise<ProcessMemory[]> {
  const all = platform() === 'linux' ? await readProcLinux() : await readPs();
  const byParent = new Map<number, ProcessMemory[]>();
  for (const entry of all) {
    const siblings = byParent.get(entry.parentPid) ?? [];
    siblings.push(entry);
    byParent.set(entry.parentPid, siblings);
  }
  const root = all.find((entry) => entry.pid === rootPid);
  if (!root) return [];
  const tree: ProcessMemory[] = [];
  const visit = [root];
  while (visit.length > 0) {
    const next = visit.pop()!;
    tree.push(next);
    visit.push(...(byParent.get(next.pid) ?? []));
  }
  return tree;
}

/** Resident bytes summed over `rootPid` and its descendants. */
export async function treeResidentBytes(rootPid: number = process.pid): Promise<number> {
  return (await readProcessTree(rootPid)).reduce((total, entry) => total + entry.residentBytes, 0);
}

async function readProcLinux(): Promise<ProcessMemory[]> {
  const names = await readdir('/proc').catch(() => [] as string[]);
  const entries = await Promise.all(
    names.filter((name) => /^\d+$/.test(name)).map((name) => readProcStatus(Number(name))),
  );
  return entries.filter((entry): entry is ProcessMemory => entry !== null);
}

/** One process from /proc/PID/status; null when it has exited meanwhile (or is a kernel thread). */
export async function readProcStatus(pid: number): Promise<ProcessMemory | null> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => null);
  return status === null ? null : parseProcStatus(pid, status);
}

export function parseProcStatus(pid: number, status: string): ProcessMemory | null {
  const field = (label: string) => new RegExp(`^${label}:\\s*(.*)$`, 'm').exec(status)?.[1]?.trim();
  const rss = field('VmRSS');
  const parent = field('PPid');
  if (rss === undefined || parent === undefined) return null;
  const kilobytes = /^(\d+)\s*kB$/.exec(rss)?.[1];
  if (kilobytes === undefined) return null;
  return {
    pid,
    parentPid: Number(parent),
    name: field('Name') ?? '',
    residentBytes: Number(kilobytes) * 1024,
  };
}

async function readPs(): Promise<ProcessMemory[]> {
  try {
    const { stdout } = await run('ps', ['-axo', 'pid=,ppid=,rss=,comm='], { timeout: 2000 });
    return stdout
      .split('\n')
      .map((line) => /^\s*(\d+)\s+(\d+)\s+(\d+)\s+(.*)$/.exec(line))
      .filter((match): match is RegExpExecArray => match !== null)
      .map((match) => ({
        pid: Number(match[1]),
        parentPid: Number(match[2]),
        residentBytes: Number(match[3]) * 1024,
        name: match[4]!.split('/').at(-1) ?? '',
      }));
  } catch {
    return [];
  }
}
