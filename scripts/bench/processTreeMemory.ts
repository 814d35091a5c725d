/**
 * Resident memory summed over this process and every process it started (workers, model hosts,
 * OCR), sampled from /proc on Linux: what a person's activity monitor would add up for Quire.
 */
import { readdirSync, readFileSync } from 'node:fs';

function parentsByPid(): Map<number, number> {
  const parents = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // The command name sits in parentheses and may hold spaces: fields are read after its end.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      parents.set(Number(entry), Number(fields[1]));
    } catch {
      // The process ended between the listing and the read.
    }
  }
  return parents;
}

function rssBytes(pid: number): number {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** This process's resident bytes plus those of all its descendants, now. */
export function treeRssBytes(root = process.pid): number {
  const parents = parentsByPid();
  const tree = new Set([root]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const [pid, parent] of parents) {
      if (!tree.has(pid) && tree.has(parent)) {
        tree.add(pid);
        grew = true;
      }
    }
  }
  let total = 0;
  for (const pid of tree) total += rssBytes(pid);
  return total;
}

/** Samples the tree every `intervalMs` until stopped; `peak` is the largest sum seen. */
export function sampleTreeRss(intervalMs = 500): { peak(): number; stop(): number } {
  let peak = treeRssBytes();
  const timer = setInterval(() => {
    peak = Math.max(peak, treeRssBytes());
  }, intervalMs);
  return {
    peak: () => peak,
    stop: () => {
      clearInterval(timer);
      peak = Math.max(peak, treeRssBytes());
      return peak;
    },
  };
}
