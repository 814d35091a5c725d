/**
 * The indexing side of `npm run bench -- budget`, run as its own process so the bench can measure it
 * (and every process it starts) from outside: indexes a folder with the page embedder, reports when
 * the work is done, waits the idle delay, reports what the budget lists, and exits when told.
 * Arguments: <folder> <dataDir> <pageEmbedder.onnx> <idleReleaseMs>.
 */
import { readFile } from 'node:fs/promises';
import { getHeapSpaceStatistics } from 'node:v8';
import { createCore } from '../../src/core/createCore';
import { workersAllowed } from '../../src/core/memory/workAllowance';

const [folder, dataDir, model, idleText] = process.argv.slice(2);
if (!folder || !dataDir || !model || !process.send) {
  console.error('budgetRun: run by the budget bench, with a folder, a data dir and a model.');
  process.exit(2);
}
const idleReleaseMs = Number(idleText ?? 60_000);
const send = (message: Record<string, unknown>) => process.send!(message);

const core = createCore({
  dataDir,
  watch: false,
  findModels: false,
  pageEmbedderPath: model,
  embedInBackground: true,
  idleReleaseMs,
});
await core.start();
const wanted = core.ingestion ? Math.max(1, (await import('node:os')).availableParallelism()) : 1;
// The budget's room for models and work together (workAllowance.ts); no model is loaded in this run.
const ceilingBytes = core.memory.budget.totalBytes - core.memory.budget.appHeadroomBytes;
send({
  type: 'started',
  machineBytes: core.memory.budget.totalBytes,
  ceilingBytes,
  readersAllowed: workersAllowed(core.memory.budget, 'read', wanted),
  ocrAllowed: workersAllowed(core.memory.budget, 'ocr', wanted),
});
const started = performance.now();
await core.library.addFolder(folder);
do {
  await core.library.whenIdle();
  await core.ingestion.whenIdle();
} while (core.library.snapshot().scanning);
await core.embedding.whenIdle();
const documents = core.library.snapshot().documents;
send({
  type: 'indexed',
  seconds: (performance.now() - started) / 1000,
  files: documents.length,
  indexed: documents.filter((doc) => doc.state === 'indexed').length,
  pages: documents.reduce((total, doc) => total + (doc.pages ?? 0), 0),
});
// Idle: the readers, OCR engines and page embedder host give their memory back after the delay.
await new Promise((resolve) => setTimeout(resolve, idleReleaseMs + 5000));
const budget = await core.memory.refresh();
send({
  type: 'idle',
  holders: budget.holders ?? [],
  heldBytes: budget.heldBytes ?? 0,
  mainProcess: await mainProcessParts(),
});
process.on('message', (message) => {
  if ((message as { type?: string }).type !== 'exit') return;
  void core.dispose().then(() => process.exit(0));
});

/**
 * What the indexing process itself holds at idle: V8's heaps (and, resident, their young generation,
 * where new objects start) and the buffers outside them, and (Linux) its resident memory split into
 * anonymous (heaps, allocator arenas) and file-backed (code, mapped files).
 */
async function mainProcessParts(): Promise<Record<string, number>> {
  const usage = process.memoryUsage();
  const rollup = await readFile('/proc/self/smaps_rollup', 'utf8').catch(() => '');
  const kb = (field: string) =>
    Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(rollup)?.[1] ?? NaN) * 1024;
  return {
    residentBytes: usage.rss,
    v8HeapBytes: usage.heapTotal,
    v8YoungGenerationBytes: getHeapSpaceStatistics()
      .filter((space) => space.space_name.startsWith('new_'))
      .reduce((total, space) => total + space.physical_space_size, 0),
    externalBytes: usage.external,
    anonymousBytes: kb('Anonymous'),
    fileBackedBytes: kb('Rss') - kb('Anonymous'),
  };
}
