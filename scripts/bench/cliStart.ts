/**
 * `npm run bench -- cli-start [--runs N] [--files N] [--data-dir DIR]`: how soon `quire` answers.
 * Builds the CLI, indexes N corpus PDFs (default 63, spread over the corpus's folders) once with
 * --no-images --no-ocr, then times, each as a new process and interleaved round by round so a busy
 * neighbour weighs on all alike: `node -e 0`, `quire --help`, `quire --version` and a cold
 * `quire search`. Issue 40's targets: help and version under 300 ms, search under 1 s. Beside wall
 * time, each command's CPU time (Linux): on a machine shared with other work, the part that is its own.
 * `--data-dir` keeps the indexed library there and reuses it on the next run.
 */
import { spawnSync } from 'node:child_process';
import { copyFile, mkdir } from 'node:fs/promises';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { corpusDir, hasCorpus, readManifest, tempDir } from '../../test/helpers/shared';
import type { BenchReport } from './report';

const root = resolve(import.meta.dirname, '..', '..');
const quire = join(root, 'packages', 'cli', 'quire.mjs');
const QUERY = 'net revenue by segment';

function option(args: string[], name: string): string | undefined {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
}

/**
 * CPU time (user + system, ms) of this process's waited-for children, from /proc on Linux (10 ms
 * ticks); null elsewhere. On a shared machine it says what a start costs, whatever the neighbours do.
 */
function childrenCpuMs(): number | null {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
    // After the name: state is field 3, so cutime (16) and cstime (17) are at 13 and 14.
    return (Number(fields[13]) + Number(fields[14])) * 10;
  } catch {
    return null;
  }
}

/** Runs one command to its end: wall time from spawn to exit, and its CPU time, in ms. */
function timed(args: string[], env: NodeJS.ProcessEnv = process.env): { ms: number; cpuMs: number | null } {
  const cpuBefore = childrenCpuMs();
  const started = performance.now();
  const run = spawnSync(process.execPath, args, { cwd: root, env, encoding: 'utf8' });
  const ms = performance.now() - started;
  const cpuAfter = childrenCpuMs();
  if (run.status !== 0) {
    throw new Error(`node ${args.join(' ')} exited ${run.status}: ${run.stderr.slice(0, 500)}`);
  }
  return { ms, cpuMs: cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore };
}

/** `count` readable PDFs spread evenly over the corpus (sorted by path), so every folder has some. */
function pickFiles(count: number): string[] {
  const readable = readManifest()
    .filter((row) => row.pages !== null && !row.localPath.startsWith('odd/'))
    .map((row) => row.localPath)
    .sort();
  const step = readable.length / Math.min(count, readable.length);
  return Array.from({ length: Math.min(count, readable.length) }, (_, i) => readable[Math.floor(i * step)]!);
}

/** Copies the files into `folder` and indexes it into `dataDir`; the seconds it took. */
async function indexLibrary(files: string[], folder: string, dataDir: string): Promise<number> {
  await mkdir(folder, { recursive: true });
  for (const file of files) await copyFile(join(corpusDir, file), join(folder, file.replaceAll('/', '__')));
  const started = performance.now();
  timed([quire, 'index', folder, '--data-dir', dataDir, '--no-images', '--no-ocr']);
  return (performance.now() - started) / 1000;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export async function run(args: string[]): Promise<BenchReport> {
  if (!hasCorpus) throw new Error(`cli-start needs the corpus at ${corpusDir}.`);
  const runs = Number(option(args, '--runs') ?? 10);
  const fileCount = Number(option(args, '--files') ?? 63);
  const kept = option(args, '--data-dir');

  const build = spawnSync(process.execPath, [join(root, 'packages', 'cli', 'build.mjs')], {
    cwd: root,
    encoding: 'utf8',
  });
  if (build.status !== 0) throw new Error(`The CLI build failed: ${build.stderr}`);
  console.log(build.stdout.trim());

  const temp = kept ? null : await tempDir('quire-bench-cli-');
  const base = kept ? resolve(kept) : temp!.path;
  const dataDir = join(base, 'data');
  const files = pickFiles(fileCount);
  try {
    let indexSeconds: number | null = null;
    if (!existsSync(join(dataDir, 'index'))) {
      console.log(`Indexing ${files.length} PDFs (--no-images --no-ocr)...`);
      indexSeconds = await indexLibrary(files, join(base, 'library'), dataDir);
    }
    // LanceDB's deprecation notices would cost the search nothing but noise.
    const env = { ...process.env, LANCEDB_LOG: 'error' };
    const cases: Array<{ command: string; args: string[]; targetMs: number | null }> = [
      { command: 'node -e 0', args: ['-e', '0'], targetMs: null },
      { command: 'quire --help', args: [quire, '--help'], targetMs: 300 },
      { command: 'quire --version', args: [quire, '--version'], targetMs: 300 },
      {
        command: `quire search "${QUERY}"`,
        args: [quire, 'search', QUERY, '--data-dir', dataDir],
        targetMs: 1000,
      },
    ];
    // One untimed round: the first start reads every file from disk.
    for (const c of cases) timed(c.args, env);
    const times = cases.map(() => [] as number[]);
    const cpuTimes = cases.map(() => [] as number[]);
    for (let round = 0; round < runs; round++) {
      cases.forEach((c, i) => {
        const { ms, cpuMs } = timed(c.args, env);
        times[i]!.push(ms);
        if (cpuMs !== null) cpuTimes[i]!.push(cpuMs);
      });
    }
    const nodeMs = median(times[0]!);
    const rows = cases.map((c, i) => ({
      command: c.command,
      medianMs: Math.round(median(times[i]!)),
      minMs: Math.round(Math.min(...times[i]!)),
      maxMs: Math.round(Math.max(...times[i]!)),
      overNodeMs: Math.round(median(times[i]!) - nodeMs),
      medianCpuMs: cpuTimes[i]!.length ? median(cpuTimes[i]!) : null,
    }));
    const targets = cases.flatMap((c, i) =>
      c.targetMs === null
        ? []
        : [
            {
              what: `${c.command} (median of ${runs})`,
              target: `< ${c.targetMs} ms`,
              measured: `${rows[i]!.medianMs} ms (node -e 0: ${Math.round(nodeMs)} ms)`,
              met: rows[i]!.medianMs < c.targetMs,
            },
          ],
    );
    return {
      name: 'cli-start',
      rows,
      targets,
      details: { runs, files: files.length, query: QUERY, indexSeconds, library: files, times, cpuTimes },
    };
  } finally {
    await temp?.cleanup();
  }
}
