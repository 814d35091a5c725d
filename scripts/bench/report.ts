import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** One benchmark's outcome: rows for the table, plus anything else worth keeping in the JSON. */
export interface BenchReport {
  name: string;
  rows: Array<Record<string, string | number | boolean | null>>;
  /** Targets from the issues, checked against the rows: printed, never asserted. */
  targets?: Array<{ what: string; target: string; measured: string; met: boolean }>;
  details?: Record<string, unknown>;
}

export type BenchFn = (args: string[]) => Promise<BenchReport>;

export function printTable(rows: BenchReport['rows']): void {
  if (rows.length === 0) return;
  const columns = [...new Set(rows.flatMap((row) => Object.keys(row)))];
  const cell = (value: unknown) =>
    typeof value === 'number'
      ? Number.isInteger(value)
        ? String(value)
        : value.toFixed(3)
      : String(value ?? '');
  const widths = columns.map((c) => Math.max(c.length, ...rows.map((r) => cell(r[c]).length)));
  const line = (values: string[]) => values.map((v, i) => v.padEnd(widths[i] ?? 0)).join('  ');
  console.log(line(columns));
  console.log(line(widths.map((w) => '-'.repeat(w))));
  for (const row of rows) console.log(line(columns.map((c) => cell(row[c]))));
}

export async function writeReport(report: BenchReport, dir = 'bench-results'): Promise<string> {
  await mkdir(dir, { recursive: true });
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const file = join(dir, `${report.name}-${stamp}.json`);
  const machine = { node: process.version, platform: process.platform, arch: process.arch };
  await writeFile(file, JSON.stringify({ ...report, machine, at: new Date().toISOString() }, null, 2));
  return file;
}

/** Peak resident set size of this process so far, in bytes (Linux reports kilobytes). */
export function peakRssBytes(): number {
  return process.resourceUsage().maxRSS * 1024;
}

/** `--name N` from a benchmark's arguments: a positive number, else `fallback`. */
export function numberOption(args: string[], name: string, fallback: number): number {
  const at = args.indexOf(name);
  const value = at === -1 ? NaN : Number(args[at + 1]);
  return Number.isFinite(value) && value > 0 ? value : fallback;
}

/** The p-th percentile (0-100) of sorted values; NaN when there are none. */
export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}
