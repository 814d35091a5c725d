/**
 * `npm run bench -- <name> [args]`: runs one benchmark (or all with no name), prints a table and
 * writes JSON under bench-results/. Benchmarks measure; they never fail on a number.
 */
import { printTable, writeReport, type BenchFn } from './bench/report';

const benches: Record<string, () => Promise<{ run: BenchFn }>> = {
  library: () => import('./bench/library'),
  ingest: () => import('./bench/extract'),
  queue: () => import('./bench/queue'),
  'huge-file': () => import('./bench/hugeFile'),
  search: () => import('./bench/search'),
  pages: () => import('./bench/pageSearch'),
  models: () => import('./bench/models'),
  agent: () => import('./bench/agent'),
  formats: () => import('./bench/formats'),
  ocr: () => import('./bench/ocr'),
  'page-open': () => import('./bench/pageOpen'),
  'library-store': () => import('./bench/libraryStore'),
  'library-scale': () => import('./bench/libraryScale'),
  budget: () => import('./bench/budget'),
  language: () => import('./bench/language'),
  'real-models': () => import('./bench/realModels'),
  embed: () => import('./bench/embed'),
  'cli-start': () => import('./bench/cliStart'),
  mcp: () => import('./bench/mcp'),
  'page-words': () => import('./bench/pageWords'),
};

const [name, ...args] = process.argv.slice(2);
// LanceDB reads its log level when it loads: the library-store bench's s3+ddb:// opens would each warn.
if (name === 'library-store') process.env.LANCEDB_LOG ??= 'error';
const selected = name ? [name] : Object.keys(benches);
for (const key of selected) {
  const load = benches[key];
  if (!load) {
    console.error(`Unknown benchmark "${key}". Known: ${Object.keys(benches).join(', ')}`);
    process.exit(2);
  }
  const report = await (await load()).run(args);
  console.log(`\n== ${report.name}`);
  printTable(report.rows);
  if (report.targets?.length) {
    console.log('');
    printTable(report.targets.map((t) => ({ ...t, met: t.met ? 'yes' : 'NO' })));
  }
  console.log(`written ${await writeReport(report)}`);
}
