import { spawn, type ChildProcess } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createDocumentPool, type DocumentPool } from '../../src/core/documents/pool/documentPool';
import {
  parseMemorySize,
  readMachineMemory,
  simulateMachine,
  type MachineMemory,
} from '../../src/core/memory/machineMemory';
import { MemoryBudgetService } from '../../src/core/memory/memoryBudgetService';
import { readProcessTree } from '../../src/core/memory/processMemory';
import { registerQuireHoldings } from '../../src/core/memory/quireHoldings';
import { workersAllowed } from '../../src/core/memory/workAllowance';
import { MemoryBudget as MemoryBudgetSchema } from '../../src/shared/domain/models';
import { describeHolders } from '../../src/renderer/src/features/models/memoryHolders';
import { LocalPageEmbedders } from '../../src/core/models/onnx/localPageEmbedders';
import type { MemoryEntry } from '../../src/shared/domain/models';
import { samplePdfBytes, samplePdfs } from '../helpers/samplePdfs';
import { tempDir } from '../helpers/shared';
import { writeTinyPageEmbedder } from '../helpers/tinyPageEmbedder';

const GB = 1e9;
/** Four copies of a three-page PDF the tests write: four jobs for the pool at once. */
const survey = samplePdfs[0]!;
let pdfFolder: Awaited<ReturnType<typeof tempDir>>;
let pdfs: string[] = [];
beforeAll(async () => {
  pdfFolder = await tempDir('quire-budget-pdfs-');
  const path = join(pdfFolder.path, survey.name);
  await writeFile(path, samplePdfBytes(survey.pages));
  pdfs = [path, path, path, path];
});
afterAll(() => pdfFolder?.cleanup());

/** A machine as QUIRE_MACHINE_MEMORY simulates it, on top of what this machine really reports now. */
async function simulated(size: string): Promise<MemoryBudgetService> {
  const memory = new MemoryBudgetService({
    readMachine: () => readMachineMemory({ QUIRE_MACHINE_MEMORY: size }),
  });
  await memory.refresh();
  return memory;
}

const opened: Array<{ dispose(): unknown }> = [];
afterEach(async () => {
  for (const item of opened.splice(0)) await item.dispose();
});

describe('QUIRE_MACHINE_MEMORY', () => {
  it('reads sizes in the units people write, and refuses anything else', () => {
    expect(parseMemorySize('8GB')).toBe(8 * GB);
    expect(parseMemorySize('512 MB')).toBe(512e6);
    expect(parseMemorySize('8g')).toBe(8 * GB);
    expect(parseMemorySize(undefined)).toBeNull();
    expect(() => parseMemorySize('eight')).toThrow(/QUIRE_MACHINE_MEMORY/);
    expect(() => parseMemorySize('0GB')).toThrow(/QUIRE_MACHINE_MEMORY/);
  });

  it('makes the budget see a machine of that size, with what runs here still running', async () => {
    const real = await readMachineMemory({});
    const small = await readMachineMemory({ QUIRE_MACHINE_MEMORY: '8GB' });
    expect(small.totalBytes).toBe(8 * GB);
    expect(small.simulated).toBe(true);
    expect(small.availableBytes).toBeLessThanOrEqual(Math.min(real.availableBytes, 8 * GB));
    const machine: MachineMemory = {
      totalBytes: 64 * GB,
      availableBytes: 60 * GB,
      unifiedMemory: false,
      source: 'meminfo',
    };
    expect(simulateMachine(machine, 8 * GB).availableBytes).toBe(4 * GB);
    expect(simulateMachine(machine, 2 * GB).availableBytes).toBe(0);
  });
});

describe('worker counts from the budget', () => {
  it('allows fewer readers, and fewer still with OCR, on a small machine than on a large one', async () => {
    const large = (await simulated('1TB')).budget;
    const small = (await simulated('2GB')).budget;
    expect(workersAllowed(large, 'read', 6)).toBe(Math.min(6, workersAllowed(large, 'read', 99)));
    expect(workersAllowed(small, 'read', 6)).toBe(1);
    expect(workersAllowed(small, 'ocr', 6)).toBe(1);
    const roomy = { ...small, totalBytes: 8 * GB, appHeadroomBytes: 2.3 * GB, availableBytes: 2.1 * GB };
    expect(workersAllowed(roomy, 'read', 6)).toBe(6);
    expect(workersAllowed(roomy, 'ocr', 6)).toBeLessThan(workersAllowed(roomy, 'read', 6));
    const modelPlanned = {
      ...roomy,
      entries: [
        {
          id: 'chat',
          label: 'chat',
          roles: ['answer' as const],
          loaded: false,
          weightsBytes: 1.5 * GB,
          kvCacheBytes: 0,
          external: false,
        },
      ],
    };
    expect(workersAllowed(modelPlanned, 'read', 6)).toBeLessThan(workersAllowed(roomy, 'read', 6));
  });

  it('runs a real pool with one worker under a small simulated machine, and with all of them otherwise', async () => {
    const run = async (size: string) => {
      const memory = await simulated(size);
      const pool: DocumentPool = createDocumentPool({
        size: 3,
        workerLimit: (work) => workersAllowed(memory.budget, work, 3),
      });
      opened.push(pool);
      const parsed = await Promise.all(pdfs.map((path) => pool.parse(path, { kind: 'pdf' })));
      expect(parsed.every((doc) => doc.pages.length === survey.pages.length)).toBe(true);
      return pool.workersStarted();
    };
    expect(await run('1GB')).toBe(1);
    expect(await run('1TB')).toBe(3);
  }, 120_000);
});

describe('idle give-back', () => {
  it('ends idle reader threads after the idle delay, and starts one again for the next job', async () => {
    const pool = createDocumentPool({ size: 2, idleExitMs: 300 });
    opened.push(pool);
    await pool.parse(pdfs[0]!, { kind: 'pdf' });
    expect(pool.workersAlive().alive).toBe(1);
    const deadline = Date.now() + 15_000;
    while (pool.workersAlive().alive > 0 && Date.now() < deadline) await sleep(50);
    expect(pool.workersAlive().alive).toBe(0);
    await pool.parse(pdfs[0]!, { kind: 'pdf' });
    expect(pool.workersStarted()).toBe(2);
  }, 60_000);
});

describe('idle page embedder host', () => {
  it('exits after the idle delay, says so to the budget, and loads again for the next query', async () => {
    const dir = await tempDir('quire-idle-embedder-');
    opened.push({ dispose: () => dir.cleanup() });
    const model = join(dir.path, 'tiny.onnx');
    await writeTinyPageEmbedder(model);
    const entries: MemoryEntry[] = [];
    const embedders = new LocalPageEmbedders({
      onMemoryEntry: (entry) => entries.push(entry),
      accelerator: false,
      threads: 1,
      idleUnloadMs: 300,
    });
    opened.push(embedders);
    const embedder = await embedders.load(model);
    expect((await embedder.embedQuery('budget')).length).toBeGreaterThan(0);
    const deadline = Date.now() + 30_000;
    while (embedder.memoryEntry().loaded && Date.now() < deadline) await sleep(50);
    expect(embedder.memoryEntry().loaded).toBe(false);
    expect(entries.at(-1)?.loaded).toBe(false);
    expect((await embedder.embedQuery('budget again')).length).toBeGreaterThan(0);
    expect(embedder.memoryEntry().loaded).toBe(true);
  }, 120_000);
});

describe('who holds what', () => {
  let child: ChildProcess | undefined;
  afterEach(() => {
    child?.kill('SIGKILL');
    child = undefined;
  });

  it('lists Quire and its child processes as measured, its threads and caches beside them', async () => {
    child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    await new Promise((resolve) => child!.once('spawn', resolve));
    const memory = new MemoryBudgetService();
    registerQuireHoldings(memory, {
      pool: () => ({ workersAlive: () => ({ alive: 2, ocr: 1 }) }),
      index: () => ({ cacheBytes: () => 12_345_678 }),
    });
    const budget = MemoryBudgetSchema.parse(await memory.refresh());
    const holders = budget.holders ?? [];
    const app = holders.find((holding) => holding.id === 'app');
    const forked = holders.find((holding) => holding.id === `process:${child!.pid}`);
    expect(app).toMatchObject({ kind: 'app', how: 'measured' });
    expect(app!.bytes).toBeGreaterThan(20e6);
    expect(forked).toMatchObject({ kind: 'host', how: 'measured' });
    expect(forked!.bytes).toBeGreaterThan(1e6);
    expect(holders.find((holding) => holding.id === 'pool')).toMatchObject({
      kind: 'workers',
      how: 'estimated',
      partOf: 'app',
      count: 2,
    });
    expect(holders.find((holding) => holding.id === 'ocr')).toMatchObject({ count: 1, partOf: 'app' });
    expect(holders.find((holding) => holding.id === 'index-cache')).toMatchObject({
      bytes: 12_345_678,
      how: 'measured',
    });
    // What the processes hold, each counted once: threads and caches are inside Quire's own figure.
    const processes = holders.filter((holding) => !holding.partOf);
    expect(budget.heldBytes).toBe(processes.reduce((total, holding) => total + holding.bytes, 0));
    const tree = await readProcessTree();
    expect(tree.map((entry) => entry.pid)).toContain(child.pid);
  });

  it('gives the memory panel every holder, the parts of a process under it', async () => {
    const pool = createDocumentPool({ size: 2 });
    opened.push(pool);
    await pool.parse(pdfs[0]!, { kind: 'pdf' });
    const memory = new MemoryBudgetService();
    registerQuireHoldings(memory, { pool: () => pool, index: () => ({ cacheBytes: () => 5e6 }) });
    const panel = describeHolders(await memory.refresh());
    const ids = panel.rows.map((row) => row.holding.id);
    const app = ids.indexOf('app');
    expect(app).toBeGreaterThanOrEqual(0);
    expect(panel.rows[app]).toMatchObject({ nested: false, source: 'measured' });
    for (const part of ['pool', 'index-cache']) {
      const at = ids.indexOf(part);
      expect(at).toBeGreaterThan(app);
      expect(panel.rows[at]!.nested).toBe(true);
    }
    expect(panel.rows[ids.indexOf('pool')]).toMatchObject({ source: 'estimated, included above' });
    expect(panel.rows[ids.indexOf('pool')]!.holding.count).toBe(1);
    expect(panel.heldBytes).toBeGreaterThanOrEqual(panel.rows[app]!.holding.bytes);
  }, 60_000);
});

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
