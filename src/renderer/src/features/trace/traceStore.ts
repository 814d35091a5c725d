import { create } from 'zustand';
import type { AgentEvent } from '../../../../shared/domain/agent';
import { quire } from '../../ipc/client';
import { withBoundedEntry } from '../../lib/boundedRecord';

/** Enough runs for a long session without growing without bound. */
const KEPT_RUNS = 50;

export interface TraceState {
  eventsByRun: Record<string, AgentEvent[]>;
  loadErrors: Record<string, string>;
  /** Runs whose timeline the user opened; every timeline starts closed. */
  openRuns: Record<string, boolean>;
  record: (event: AgentEvent) => void;
  /** Fetches a past run's trace, merging events that streamed in while it loaded. */
  load: (runId: string) => Promise<void>;
  setOpen: (runId: string, open: boolean) => void;
}

const loading = new Set<string>();

export const useTraceStore = create<TraceState>((set, get) => ({
  eventsByRun: {},
  loadErrors: {},
  openRuns: {},

  record: (event) =>
    set((state) => ({
      eventsByRun: withBoundedEntry(
        state.eventsByRun,
        event.runId,
        [...(state.eventsByRun[event.runId] ?? []), event],
        KEPT_RUNS,
      ),
    })),

  load: async (runId) => {
    // A run with events here is streaming or already loaded.
    if (loading.has(runId) || get().eventsByRun[runId]) return;
    loading.add(runId);
    const result = await quire['chat.trace']({ runId });
    loading.delete(runId);
    if (!result.ok) {
      set((state) => ({ loadErrors: { ...state.loadErrors, [runId]: result.error.message } }));
      return;
    }
    set((state) => {
      const stored = result.value;
      const lastStoredAt = stored.at(-1)?.at ?? -Infinity;
      const streamed = (state.eventsByRun[runId] ?? []).filter((event) => event.at > lastStoredAt);
      return { eventsByRun: withBoundedEntry(state.eventsByRun, runId, [...stored, ...streamed], KEPT_RUNS) };
    });
  },

  setOpen: (runId, open) =>
    set((state) => ({ openRuns: withBoundedEntry(state.openRuns, runId, open, KEPT_RUNS) })),
}));

export function startTraceSync(): () => void {
  return quire.on('chat.onEvent', (event) => useTraceStore.getState().record(event));
}
