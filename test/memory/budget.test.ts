import { describe, expect, it } from 'vitest';
import type { MemoryBudget, MemoryEntry } from '../../src/shared/domain/models';
import { MemoryBudget as MemoryBudgetSchema } from '../../src/shared/domain/models';
import { appHeadroomBytes, modelCapacityBytes } from '../../src/core/memory/capacity';
import {
  parseMeminfoAvailable,
  parseVmStatUsed,
  readMachineMemory,
} from '../../src/core/memory/machineMemory';
import { MemoryBudgetService } from '../../src/core/memory/memoryBudgetService';
import { planFit, type FitMachine, type ModelLoadRequest } from '../../src/core/memory/planFit';
import { CATALOGUE, memoryBytes } from '../../src/core/models/catalogue/catalogue';
import { modelBudgetBytes, pickModel } from '../../src/core/models/catalogue/recommend';

const GiB = 1024 ** 3;
const GB = 1e9;
const kv = (layers: number, kvHeads: number) => 2 * layers * kvHeads * 128 * 2;

/** Load requests shaped like real Qwen3 GGUFs (weights, KV per token, lighter quants): planner fixtures. */
const FIXTURES: ModelLoadRequest[] = [
  {
    id: 'qwen3-4b',
    label: 'Qwen3 4B',
    roles: ['decide', 'answer'],
    quant: 'Q4_K_M',
    weightsBytes: 2.5 * GB,
    contextSize: 8192,
    contextBytesPerToken: kv(36, 8),
    lighterQuants: [{ quant: 'Q3_K_M', weightsBytes: 2.08 * GB }],
  },
  {
    id: 'qwen3-8b',
    label: 'Qwen3 8B',
    roles: ['decide', 'answer'],
    quant: 'Q4_K_M',
    weightsBytes: 5.03 * GB,
    contextSize: 16384,
    contextBytesPerToken: kv(36, 8),
    lighterQuants: [{ quant: 'Q3_K_M', weightsBytes: 4.12 * GB }],
  },
  {
    id: 'qwen3-14b',
    label: 'Qwen3 14B',
    roles: ['decide', 'answer'],
    quant: 'Q4_K_M',
    weightsBytes: 9.0 * GB,
    contextSize: 16384,
    contextBytesPerToken: kv(40, 8),
    lighterQuants: [{ quant: 'Q3_K_M', weightsBytes: 7.32 * GB }],
  },
  {
    id: 'qwen3-32b',
    label: 'Qwen3 32B',
    roles: ['answer'],
    quant: 'Q4_K_M',
    weightsBytes: 19.8 * GB,
    contextSize: 32768,
    contextBytesPerToken: kv(64, 8),
    lighterQuants: [{ quant: 'Q3_K_M', weightsBytes: 16.0 * GB }],
  },
  {
    id: 'qwen3-embedding-0.6b',
    label: 'Qwen3 Embedding 0.6B',
    roles: ['embed'],
    quant: 'Q8_0',
    weightsBytes: 639 * 1e6,
    contextSize: 2048,
    contextBytesPerToken: kv(28, 8),
    lighterQuants: [],
  },
  {
    id: 'qwen3-embedding-4b',
    label: 'Qwen3 Embedding 4B',
    roles: ['embed'],
    quant: 'Q4_K_M',
    weightsBytes: 2.5 * GB,
    contextSize: 2048,
    contextBytesPerToken: kv(36, 8),
    lighterQuants: [],
  },
];

function model(id: string): ModelLoadRequest {
  const entry = FIXTURES.find((candidate) => candidate.id === id);
  if (!entry) throw new Error(`no fixture ${id}`);
  return { ...entry };
}

/** A machine as it looks after boot: the OS and other apps use a share of RAM. */
function machine(
  totalGiB: number,
  options: { unified?: boolean; resident?: FitMachine['resident'] } = {},
): FitMachine {
  const resident = options.resident ?? [];
  const residentBytes = resident.reduce((sum, entry) => sum + entry.weightsBytes + entry.kvCacheBytes, 0);
  return {
    totalBytes: totalGiB * GiB,
    availableBytes: totalGiB * GiB * 0.7 - residentBytes,
    unifiedMemory: options.unified ?? false,
    resident,
  };
}

const ollamaServer = { serverLabel: 'Ollama (localhost:11434)', localBytes: 0 };
const withServer = (request: ModelLoadRequest): ModelLoadRequest => ({
  ...request,
  serverFallback: ollamaServer,
});

const small = [model('qwen3-4b'), model('qwen3-embedding-0.6b')];
const medium = [model('qwen3-8b'), model('qwen3-embedding-0.6b')];
const large = [model('qwen3-32b'), model('qwen3-embedding-4b')];

describe('planFit on a table of machines and model sets', () => {
  const table: Array<{
    machine: string;
    at: FitMachine;
    set: string;
    requests: ModelLoadRequest[];
    decision: 'fits' | 'fits_with_changes' | 'refused';
    kinds?: string[];
  }> = [
    {
      machine: '8 GB',
      at: machine(8),
      set: 'small',
      requests: small,
      decision: 'fits_with_changes',
      kinds: ['quant', 'context'],
    },
    { machine: '8 GB', at: machine(8), set: 'medium', requests: medium, decision: 'refused' },
    {
      machine: '8 GB',
      at: machine(8),
      set: 'medium + server',
      requests: [withServer(medium[0]!), medium[1]!],
      decision: 'fits_with_changes',
      kinds: ['offload'],
    },
    { machine: '8 GB', at: machine(8), set: 'large', requests: large, decision: 'refused' },
    { machine: '16 GB', at: machine(16), set: 'small', requests: small, decision: 'fits' },
    { machine: '16 GB', at: machine(16), set: 'medium', requests: medium, decision: 'fits' },
    { machine: '16 GB', at: machine(16), set: 'large', requests: large, decision: 'refused' },
    {
      machine: '16 GB',
      at: machine(16),
      set: 'large + server',
      requests: [withServer(large[0]!), large[1]!],
      decision: 'fits_with_changes',
      kinds: ['offload'],
    },
    {
      machine: '36 GB (Apple)',
      at: machine(36, { unified: true }),
      set: 'medium',
      requests: medium,
      decision: 'fits',
    },
    {
      machine: '36 GB (Apple)',
      at: machine(36, { unified: true }),
      set: 'large',
      requests: large,
      decision: 'fits_with_changes',
      kinds: ['quant', 'context'],
    },
    {
      machine: '128 GB (Apple)',
      at: machine(128, { unified: true }),
      set: 'large',
      requests: large,
      decision: 'fits',
    },
    {
      machine: '128 GB',
      at: machine(128),
      set: 'large + medium',
      requests: [...large, model('qwen3-8b')],
      decision: 'fits',
    },
  ];

  for (const row of table) {
    it(`${row.machine}, ${row.set}: ${row.decision}`, () => {
      const plan = planFit(row.at, row.requests);
      expect(plan.decision, plan.reason).toBe(row.decision);
      if (row.kinds) expect([...new Set(plan.changes.map((change) => change.kind))]).toEqual(row.kinds);
      if (plan.decision === 'refused') {
        expect(plan.loads).toEqual([]);
        expect(plan.reason).toMatch(/^Cannot load .+ need [\d.]+ GB, but [\d.]+ GB is available for models/);
      } else {
        expect(plan.requiredBytes).toBeLessThanOrEqual(plan.capacityBytes);
        expect(plan.loads).toHaveLength(row.requests.length);
      }
      for (const change of plan.changes) expect(change.sentence).toMatch(/^[A-Z].+\.$/);
    });
  }
});

describe('planFit fallbacks, one at a time', () => {
  const tight: FitMachine = { totalBytes: 16 * GiB, availableBytes: 10 * GiB, unifiedMemory: false };
  const capacity = modelCapacityBytes(tight, 0, appHeadroomBytes(tight.totalBytes));

  it('cuts the context first, no further than needed and never below the minimum', () => {
    const request: ModelLoadRequest = {
      ...model('qwen3-8b'),
      contextSize: 40960,
      weightsBytes: capacity - 8192 * 147456 - 1,
    };
    const plan = planFit(tight, [request]);
    expect(plan.decision).toBe('fits_with_changes');
    expect(plan.loads[0]!.contextSize).toBe(5120);
    expect(plan.changes).toEqual([
      expect.objectContaining({
        kind: 'context',
        sentence: expect.stringContaining('5,120 tokens of context instead of 40,960'),
      }),
    ]);
  });

  it('moves to a lighter quant when the smallest context is not enough', () => {
    const request: ModelLoadRequest = {
      ...model('qwen3-8b'),
      weightsBytes: capacity - 2048 * 147456 + 0.5e9,
      lighterQuants: [{ quant: 'Q3_K_M', weightsBytes: capacity - 2048 * 147456 - 0.5e9 }],
    };
    const plan = planFit(tight, [request]);
    expect(plan.decision).toBe('fits_with_changes');
    expect(plan.loads[0]).toMatchObject({ quant: 'Q3_K_M', placement: 'local' });
    expect(plan.changes.map((change) => change.kind).sort()).toEqual(['context', 'quant']);
  });

  it('unloads an idle model, but never an external one or a busy one', () => {
    const idleEntry: MemoryEntry & { idle: boolean } = {
      id: 'old',
      label: 'Old model',
      roles: ['answer'],
      loaded: true,
      weightsBytes: 4 * GiB,
      kvCacheBytes: 0.5 * GiB,
      external: false,
      idle: true,
    };
    const ollamaEntry = {
      ...idleEntry,
      id: 'ollama:qwen3:1.7b',
      label: 'qwen3:1.7b in Ollama',
      weightsBytes: 1 * GiB,
      kvCacheBytes: 0,
      external: true,
    };
    const at = machine(16, { resident: [idleEntry, ollamaEntry] });
    const plan = planFit(at, [model('qwen3-8b')]);
    expect(plan.decision).toBe('fits_with_changes');
    expect(plan.unloads).toEqual(['old']);
    // The lighter quant and the smaller context tried before the unload were undone once it freed enough.
    expect(plan.changes.map((change) => change.kind)).toEqual(['unload']);
    expect(plan.changes.find((change) => change.kind === 'unload')!.sentence).toContain('Old model is idle');

    const busy = planFit(machine(16, { resident: [{ ...idleEntry, idle: false }, ollamaEntry] }), [
      model('qwen3-8b'),
    ]);
    expect(busy.decision).toBe('refused');
    expect(busy.unloads).toEqual([]);
  });

  it('undoes a context cut that an offload made unnecessary', () => {
    const plan = planFit(machine(8), [withServer(model('qwen3-14b'))]);
    expect(plan.decision).toBe('fits_with_changes');
    expect(plan.changes.map((change) => change.kind)).toEqual(['offload']);
    expect(plan.loads[0]).toMatchObject({ placement: 'server', contextSize: 16384, bytes: 0 });
  });

  it('counts what a local server would add when a role moves there', () => {
    const costly = { ...model('qwen3-14b'), serverFallback: { serverLabel: 'Ollama', localBytes: 20 * GiB } };
    expect(planFit(machine(8), [costly]).decision).toBe('refused');
  });

  it('keeps unified memory under the GPU working-set share even with plenty available', () => {
    const at: FitMachine = {
      totalBytes: 32 * GiB,
      availableBytes: 31 * GiB,
      unifiedMemory: true,
      appHeadroomBytes: 0,
    };
    const huge: ModelLoadRequest = { ...model('qwen3-8b'), weightsBytes: 26 * GiB, lighterQuants: [] };
    expect(planFit(at, [huge]).decision).toBe('refused');
    expect(planFit({ ...at, unifiedMemory: false }, [huge]).decision).toBe('fits');
  });
});

describe('catalogue models against the planner', () => {
  it('proposes, for each machine, a chat model and embedder the planner lets load', () => {
    for (const [totalGiB, appleSilicon] of [
      [8, true],
      [16, true],
      [16, false],
      [36, true],
      [128, false],
    ] as const) {
      const at = { totalBytes: totalGiB * GiB, unifiedMemory: appleSilicon, appleSilicon };
      const requests = (['answer', 'embed'] as const).map((role): ModelLoadRequest => {
        const picked = pickModel(role, at).model;
        return {
          id: picked.id,
          label: picked.label,
          roles: picked.roles.filter((role) => role !== 'rerank'),
          weightsBytes: picked.files.reduce((sum, file) => sum + file.sizeBytes, 0),
          contextSize: picked.contextSize,
          contextBytesPerToken: picked.kvCacheBytesPerToken,
        };
      });
      expect(
        planFit(machine(totalGiB, { unified: appleSilicon }), requests).decision,
        `${totalGiB} GB`,
      ).not.toBe('refused');
      expect(memoryBytes(pickModel('answer', at).model)).toBeLessThan(modelBudgetBytes(at));
    }
    expect(CATALOGUE.length).toBeGreaterThan(0);
  });
});

describe('machine memory', () => {
  it('reads MemAvailable from /proc/meminfo', () => {
    const meminfo = 'MemTotal:       16303432 kB\nMemFree:          512000 kB\nMemAvailable:    9123456 kB\n';
    expect(parseMeminfoAvailable(meminfo)).toBe(9123456 * 1024);
    expect(parseMeminfoAvailable('MemTotal: 1 kB\n')).toBeNull();
  });

  it('reads wired, active and compressed pages from vm_stat', () => {
    const vmStat = [
      'Mach Virtual Memory Statistics: (page size of 16384 bytes)',
      'Pages free:                               12345.',
      'Pages active:                            400000.',
      'Pages inactive:                          380000.',
      'Pages wired down:                        150000.',
      'Pages occupied by compressor:             50000.',
    ].join('\n');
    expect(parseVmStatUsed(vmStat)).toBe((400000 + 150000 + 50000) * 16384);
    expect(parseVmStatUsed('nothing here')).toBeNull();
  });

  it('reads this machine', async () => {
    const memory = await readMachineMemory();
    expect(memory.totalBytes).toBeGreaterThan(0);
    expect(memory.availableBytes).toBeGreaterThan(0);
    expect(memory.availableBytes).toBeLessThanOrEqual(memory.totalBytes);
    if (process.platform === 'linux') expect(memory.source).toBe('meminfo');
  });
});

describe('MemoryBudgetService', () => {
  const entry = (id: string, loaded: boolean, external = false): MemoryEntry => ({
    id,
    label: id,
    roles: ['decide'],
    loaded,
    weightsBytes: 2 * GiB,
    kvCacheBytes: 0.5 * GiB,
    external,
  });

  function service(availableGiB: { value: number }) {
    return new MemoryBudgetService({
      readMachine: async () => ({
        totalBytes: 16 * GiB,
        availableBytes: availableGiB.value * GiB,
        unifiedMemory: false,
        source: 'meminfo',
      }),
    });
  }

  it('emits a valid budget on every change, and not for noise', async () => {
    const available = { value: 10 };
    const budgets = service(available);
    const seen: MemoryBudget[] = [];
    budgets.onChange((budget) => seen.push(budget));
    await budgets.refresh();
    expect(seen).toHaveLength(1);
    expect(MemoryBudgetSchema.safeParse(seen[0]).success).toBe(true);
    expect(seen[0]!.appHeadroomBytes).toBe(appHeadroomBytes(16 * GiB));

    budgets.setEntry(entry('planned', false));
    expect(seen).toHaveLength(2);
    expect(seen[1]!.freeForModelsBytes).toBe(seen[0]!.freeForModelsBytes - 2.5 * GiB);

    available.value = 10.01;
    await budgets.refresh();
    expect(seen).toHaveLength(2);
    available.value = 7;
    await budgets.refresh();
    expect(seen).toHaveLength(3);

    budgets.replaceExternalEntries([entry('ollama:a', true, true)]);
    budgets.replaceExternalEntries([entry('ollama:b', true, true)]);
    expect(seen.at(-1)!.entries.map((e) => e.id)).toEqual(['planned', 'ollama:b']);
    budgets.removeEntry('planned');
    expect(seen.at(-1)!.entries.map((e) => e.id)).toEqual(['ollama:b']);
  });

  it('plans against loaded entries and keeps the sentences as notes', async () => {
    const budgets = service({ value: 4 });
    await budgets.refresh();
    budgets.setEntry(entry('loaded-idle', true));
    const plan = budgets.plan([model('qwen3-4b')], new Set(['loaded-idle']));
    expect(plan.decision).toBe('fits_with_changes');
    expect(plan.unloads).toEqual(['loaded-idle']);
    expect(budgets.budget.notes).toEqual(plan.changes.map((change) => change.sentence));

    const refused = budgets.plan([model('qwen3-32b')]);
    expect(refused.decision).toBe('refused');
    expect(budgets.budget.notes).toEqual([refused.reason]);
  });
});
