/*
 * The live memory budget: the machine's RAM, one entry per model Quire holds or plans to hold, the models
 * servers on this machine hold, and the notes of the last plan. Listeners hear of every change (the
 * composition root forwards them as `memory.onBudget`).
 */
import type { MemoryBudget, MemoryEntry, MemoryHolding } from '../../shared/domain/models';
import { appHeadroomBytes, modelCapacityBytes } from './capacity';
import { readMachineMemory, type MachineMemory } from './machineMemory';
import { planFit, type FitPlan, type ModelLoadRequest } from './planFit';

export interface MemoryBudgetServiceOptions {
  readMachine?: () => Promise<MachineMemory>;
  /** Defaults to appHeadroomBytes (1.5 GB + 10% of RAM). */
  headroomBytes?: (totalBytes: number) => number;
  /**
   * Changes of available RAM smaller than this do not count as a change: RAM moves a little all the
   * time and the UI need not redraw for it. Defaults to 64 MB.
   */
  availableChangeThresholdBytes?: number;
}

export type BudgetListener = (budget: MemoryBudget) => void;

/** Says what one part of Quire holds now; read at every refresh. */
export type HoldingsSource = () => MemoryHolding[] | Promise<MemoryHolding[]>;

export class MemoryBudgetService {
  private machine: MachineMemory | null = null;
  private readonly entries = new Map<string, MemoryEntry>();
  private notes: string[] = [];
  private readonly listeners = new Set<BudgetListener>();
  private readonly holdingSources = new Set<HoldingsSource>();
  private holdings: MemoryHolding[] = [];
  private lastEmitted: MemoryBudget | null = null;
  private readonly readMachine: () => Promise<MachineMemory>;
  private readonly headroomFor: (totalBytes: number) => number;
  private readonly threshold: number;

  constructor(options: MemoryBudgetServiceOptions = {}) {
    this.readMachine = options.readMachine ?? readMachineMemory;
    this.headroomFor = options.headroomBytes ?? appHeadroomBytes;
    this.threshold = options.availableChangeThresholdBytes ?? 64 * 1024 * 1024;
  }

  /** The current budget; call refresh() once first so the machine's numbers are real. */
  get budget(): MemoryBudget {
    const machine = this.machine ?? {
      totalBytes: 0,
      availableBytes: 0,
      unifiedMemory: false,
      source: 'freemem',
    };
    const entries = [...this.entries.values()];
    const headroom = this.headroomFor(machine.totalBytes);
    const inRam = (entry: MemoryEntry) => entryBytes(entry, machine.unifiedMemory);
    const resident = sum(entries.filter((entry) => entry.loaded).map(inRam));
    const planned = sum(entries.filter((entry) => !entry.loaded).map(inRam));
    return {
      totalBytes: machine.totalBytes,
      availableBytes: machine.availableBytes,
      unifiedMemory: machine.unifiedMemory,
      appHeadroomBytes: headroom,
      entries,
      freeForModelsBytes: modelCapacityBytes(machine, resident, headroom) - resident - planned,
      notes: [...this.notes],
      holders: [...this.holdings],
      heldBytes: sum(this.holdings.filter((holding) => !holding.partOf).map((holding) => holding.bytes)),
    };
  }

  async refresh(): Promise<MemoryBudget> {
    const [machine, holdings] = await Promise.all([this.readMachine(), this.readHoldings()]);
    this.machine = machine;
    this.holdings = holdings;
    return this.changed();
  }

  /** Adds a part of Quire that holds memory (a process, a pool, a cache); the function removes it. */
  addHoldings(source: HoldingsSource): () => void {
    this.holdingSources.add(source);
    return () => this.holdingSources.delete(source);
  }

  private async readHoldings(): Promise<MemoryHolding[]> {
    // One source that cannot be read (a process gone meanwhile) must not hide the others.
    const read = await Promise.all(
      [...this.holdingSources].map(async (source) => {
        try {
          return await source();
        } catch {
          return [];
        }
      }),
    );
    return read.flat();
  }

  /** Adds or replaces one model's entry (loaded or planned). */
  setEntry(entry: MemoryEntry): void {
    this.entries.set(entry.id, entry);
    this.changed();
  }

  removeEntry(id: string): void {
    if (this.entries.delete(id)) this.changed();
  }

  /** Replaces every external entry, e.g. with what Ollama's /api/ps lists now. */
  replaceExternalEntries(entries: MemoryEntry[]): void {
    for (const [id, entry] of this.entries) if (entry.external) this.entries.delete(id);
    for (const entry of entries) this.entries.set(entry.id, { ...entry, external: true });
    this.changed();
  }

  /**
   * Plans `requests` against the machine and the loaded entries; `idleIds` are Quire's loaded models
   * that may be unloaded. The plan's sentences become the budget's notes.
   */
  plan(requests: ModelLoadRequest[], idleIds: ReadonlySet<string> = new Set()): FitPlan {
    const machine = this.machine ?? { totalBytes: 0, availableBytes: 0, unifiedMemory: false };
    const resident = [...this.entries.values()]
      .filter((entry) => entry.loaded)
      .map((entry) => ({ ...entry, idle: idleIds.has(entry.id) }));
    const plan = planFit(
      { ...machine, appHeadroomBytes: this.headroomFor(machine.totalBytes), resident },
      requests,
    );
    this.notes = plan.decision === 'refused' ? [plan.reason] : plan.changes.map((change) => change.sentence);
    this.changed();
    return plan;
  }

  onChange(listener: BudgetListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Refreshes every `intervalMs` until the returned function is called. */
  watch(intervalMs = 5000): () => void {
    const timer = setInterval(() => void this.refresh().catch(() => undefined), intervalMs);
    timer.unref();
    return () => clearInterval(timer);
  }

  private changed(): MemoryBudget {
    const budget = this.budget;
    if (this.machine && this.differs(budget)) {
      this.lastEmitted = budget;
      for (const listener of this.listeners) listener(budget);
    }
    return budget;
  }

  private differs(budget: MemoryBudget): boolean {
    const last = this.lastEmitted;
    if (!last) return true;
    if (Math.abs(last.availableBytes - budget.availableBytes) >= this.threshold) return true;
    // Held memory moves all the time too: a holder counts as changed when it moves by the threshold.
    const coarse = (bytes: number) => Math.round(bytes / this.threshold);
    const withoutAvailable = (b: MemoryBudget) =>
      JSON.stringify({
        ...b,
        availableBytes: 0,
        freeForModelsBytes: b.freeForModelsBytes - b.availableBytes,
        holders: b.holders?.map((holding) => ({ ...holding, bytes: coarse(holding.bytes) })),
        heldBytes: coarse(b.heldBytes ?? 0),
      });
    return withoutAvailable(last) !== withoutAvailable(budget);
  }
}

/** RAM an entry takes: what a server keeps in a discrete GPU's memory does not count. */
function entryBytes(entry: MemoryEntry, unifiedMemory: boolean): number {
  const total = entry.weightsBytes + entry.kvCacheBytes;
  return unifiedMemory ? total : total - (entry.gpuBytes ?? 0);
}

function sum(values: number[]): number {
  return values.reduce((total, value) => total + value, 0);
}
