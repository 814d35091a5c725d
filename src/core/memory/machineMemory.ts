/*
 * How much RAM the machine has and how much of it a new model could take now.
 *
 * - Linux: MemAvailable from /proc/meminfo, the kernel's own estimate of what can be allocated without
 *   swapping (free pages plus reclaimable cache). os.freemem() counts only free pages and is far too low.
 * - macOS: free pages are just as misleading, so available = total - (wired + active + compressed), from
 *   vm_stat. Inactive and purgeable pages are treated as available, as Activity Monitor does. On Apple
 *   Silicon the GPU shares this memory (unified), so model weights on the GPU count against it too.
 * - Elsewhere, or when reading fails: os.freemem().
 */
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { arch, freemem, platform, totalmem } from 'node:os';
import { promisify } from 'node:util';
import { QuireError } from '../../shared/errors';

export interface MachineMemory {
  totalBytes: number;
  availableBytes: number;
  /** CPU and GPU share the same RAM (Apple Silicon). */
  unifiedMemory: boolean;
  /** Where availableBytes came from, for logs and the UI's tooltip. */
  source: 'meminfo' | 'vm_stat' | 'freemem';
  /** Set when QUIRE_MACHINE_MEMORY stands in for the real machine's size. */
  simulated?: boolean;
}

const run = promisify(execFile);

/**
 * The machine's memory, or the machine `QUIRE_MACHINE_MEMORY` (e.g. `8GB`) asks to simulate: tests and
 * benches play a small laptop on a larger machine.
 */
export async function readMachineMemory(env: NodeJS.ProcessEnv = process.env): Promise<MachineMemory> {
  const real = await readRealMachineMemory();
  const simulated = parseMemorySize(env.QUIRE_MACHINE_MEMORY);
  return simulated === null ? real : simulateMachine(real, simulated);
}

/** The machine's size now, or the simulated one's: no system call, for sizing things at start. */
export function machineTotalBytes(env: NodeJS.ProcessEnv = process.env): number {
  return parseMemorySize(env.QUIRE_MACHINE_MEMORY) ?? totalmem();
}

/**
 * A smaller machine with the same things running: what the rest of this machine uses now is used on the
 * simulated one too, so it has `simulated - used` available (never more than is really available).
 */
export function simulateMachine(real: MachineMemory, simulatedBytes: number): MachineMemory {
  const usedElsewhere = Math.max(0, real.totalBytes - real.availableBytes);
  return {
    ...real,
    totalBytes: simulatedBytes,
    availableBytes: Math.max(0, Math.min(real.availableBytes, simulatedBytes - usedElsewhere)),
    simulated: true,
  };
}

const UNITS: Record<string, number> = {
  '': 1,
  B: 1,
  KB: 1e3,
  MB: 1e6,
  GB: 1e9,
  TB: 1e12,
  K: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
};

/** `8GB`, `512 MB`, `8g` or plain bytes; null when absent; an error for anything else. */
export function parseMemorySize(text: string | undefined): number | null {
  if (text === undefined || text.trim() === '') return null;
  const match = /^\s*(\d+(?:\.\d+)?)\s*([a-zA-Z]*)\s*$/.exec(text);
  const unit = match ? UNITS[match[2]!.toUpperCase()] : undefined;
  if (!match || unit === undefined || Number(match[1]) <= 0) {
    throw new QuireError(
      'invalid_input',
      `QUIRE_MACHINE_MEMORY must be a size such as 8GB or 512MB, not "${text}".`,
    );
  }
  return Math.round(Number(match[1]) * unit);
}

async function readRealMachineMemory(): Promise<MachineMemory> {
  const totalBytes = totalmem();
  const unifiedMemory = platform() === 'darwin' && arch() === 'arm64';
  try {
    if (platform() === 'linux') {
      const available = parseMeminfoAvailable(await readFile('/proc/meminfo', 'utf8'));
      if (available !== null)
        return { totalBytes, availableBytes: available, unifiedMemory, source: 'meminfo' };
    }
    if (platform() === 'darwin') {
      const { stdout } = await run('vm_stat', [], { timeout: 2000 });
      const used = parseVmStatUsed(stdout);
      if (used !== null) {
        return {
          totalBytes,
          availableBytes: Math.max(0, totalBytes - used),
          unifiedMemory,
          source: 'vm_stat',
        };
      }
    }
  } catch {
    // Fall through to what Node reports.
  }
  return { totalBytes, availableBytes: freemem(), unifiedMemory, source: 'freemem' };
}

/** MemAvailable in bytes, or null on kernels older than 3.14 that lack it. */
export function parseMeminfoAvailable(meminfo: string): number | null {
  const match = /^MemAvailable:\s+(\d+)\s*kB/m.exec(meminfo);
  return match ? Number(match[1]) * 1024 : null;
}

/** Bytes in wired, active and compressor pages, or null when the output is not vm_stat's. */
export function parseVmStatUsed(vmStat: string): number | null {
  const pageSize = /page size of (\d+) bytes/.exec(vmStat);
  if (!pageSize) return null;
  const pages = (label: string) => {
    const match = new RegExp(`^${label}:\\s+(\\d+)`, 'm').exec(vmStat);
    return match ? Number(match[1]) : null;
  };
  const wired = pages('Pages wired down');
  const active = pages('Pages active');
  if (wired === null || active === null) return null;
  const compressed = pages('Pages occupied by compressor') ?? 0;
  return (wired + active + compressed) * Number(pageSize[1]);
}
