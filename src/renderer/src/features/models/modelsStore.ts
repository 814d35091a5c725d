import { create } from 'zustand';
import type {
  DownloadProgress,
  MemoryBudget,
  ModelRole,
  ModelSettings,
  ModelsStatus,
  RoleChoice,
  SetupProposal,
  SetupRole,
} from '../../../../shared/domain/models';
import type { ErrorInfo } from '../../../../shared/errors';
import type { CallResult } from '../../../../shared/ipc/contract';
import { quire } from '../../ipc/client';
import { errorOf } from '../../lib/callResult';
import { FreshnessGuard } from '../../lib/freshness';
import { upsertDownload } from './downloads';

export interface ModelsState {
  status: ModelsStatus | null;
  settings: ModelSettings | null;
  budget: MemoryBudget | null;
  downloads: DownloadProgress[];
  loadError: string | null;
  budgetError: string | null;
  /** The model set the setup proposes for this machine; loaded on connect and after a setup. */
  proposal: SetupProposal | null;
  proposalError: string | null;
  /** Set while text searches run on BM25 alone, with the reason (the same words `quire search` prints). */
  searchNotice: string | null;
  /** Downloads the last setup started, to show its progress in the setup card. */
  setupDownloadIds: string[];
  loadProposal: () => Promise<ErrorInfo | null>;
  /** Fetches the proposal's models for `roles` (every role when left out). */
  startSetup: (roles?: SetupRole[]) => Promise<ErrorInfo | null>;
  dismissSetup: () => Promise<ErrorInfo | null>;
  refresh: () => Promise<ErrorInfo | null>;
  chooseRole: (role: ModelRole, choice: RoleChoice | null) => Promise<ErrorInfo | null>;
  setServers: (servers: string[]) => Promise<ErrorInfo | null>;
  pauseDownload: (downloadId: string) => Promise<ErrorInfo | null>;
  resumeDownload: (downloadId: string) => Promise<ErrorInfo | null>;
  cancelDownload: (downloadId: string) => Promise<ErrorInfo | null>;
}

const statusGuard = new FreshnessGuard();
const budgetGuard = new FreshnessGuard();

export const useModelsStore = create<ModelsState>(() => ({
  status: null,
  settings: null,
  budget: null,
  downloads: [],
  loadError: null,
  budgetError: null,
  proposal: null,
  proposalError: null,
  searchNotice: null,
  setupDownloadIds: [],
  loadProposal: async () => {
    const result = await quire['models.recommend']({});
    useModelsStore.setState(
      result.ok ? { proposal: result.value, proposalError: null } : { proposalError: result.error.message },
    );
    return errorOf(result);
  },
  startSetup: async (roles) => {
    const result = await quire['models.setup'](roles ? { roles } : {});
    if (result.ok)
      useModelsStore.setState((state) => ({
        setupDownloadIds: result.value.downloads.map((download) => download.id),
        downloads: result.value.downloads.reduce(
          (list, download) => upsertDownload(list, download),
          state.downloads,
        ),
      }));
    return errorOf(result);
  },
  dismissSetup: async () => applySettings(await quire['models.dismissSetup']({})),
  refresh: async () => {
    const result = await quire['models.refresh']({});
    if (result.ok) applyStatus(result.value);
    return errorOf(result);
  },
  chooseRole: async (role, choice) => applySettings(await quire['models.chooseRole']({ role, choice })),
  setServers: async (servers) => applySettings(await quire['models.setServers']({ servers })),
  pauseDownload: async (downloadId) => applyDownload(await quire['models.pauseDownload']({ downloadId })),
  resumeDownload: async (downloadId) => applyDownload(await quire['models.resumeDownload']({ downloadId })),
  cancelDownload: async (downloadId) => applyDownload(await quire['models.cancelDownload']({ downloadId })),
}));

function applyStatus(status: ModelsStatus): void {
  statusGuard.noteEvent();
  // The budget comes from memory.onBudget alone: a status may carry one older than the last event.
  useModelsStore.setState((state) => ({
    status,
    budget: state.budget ?? status.memory,
    downloads: status.downloads,
    loadError: null,
  }));
}

/** Once every download of a setup has finished, the proposal is read again: it now says "already here". */
function noteDownload(download: DownloadProgress): void {
  useModelsStore.setState((state) => ({ downloads: upsertDownload(state.downloads, download) }));
  const { setupDownloadIds, downloads } = useModelsStore.getState();
  if (!setupDownloadIds.includes(download.id)) return;
  const mine = downloads.filter((item) => setupDownloadIds.includes(item.id));
  if (mine.length === setupDownloadIds.length && mine.every((item) => item.state === 'done')) {
    void useModelsStore.getState().loadProposal();
  }
}

function applySettings(result: CallResult<ModelSettings>): ErrorInfo | null {
  if (result.ok) useModelsStore.setState({ settings: result.value });
  return errorOf(result);
}

function applyBudget(budget: MemoryBudget): void {
  budgetGuard.noteEvent();
  useModelsStore.setState({ budget, budgetError: null });
}

function applyDownload(result: CallResult<DownloadProgress>): ErrorInfo | null {
  if (result.ok)
    useModelsStore.setState((state) => ({ downloads: upsertDownload(state.downloads, result.value) }));
  return errorOf(result);
}

async function fetchModels(): Promise<void> {
  const statusToken = statusGuard.begin();
  const budgetToken = budgetGuard.begin();
  const [status, budget, settings] = await Promise.all([
    quire['models.status']({}),
    quire['memory.budget']({}),
    quire['models.settings']({}),
  ]);
  applySettings(settings);
  if (status.ok) {
    if (statusGuard.isFresh(statusToken)) applyStatus(status.value);
  } else {
    useModelsStore.setState({ loadError: status.error.message });
  }
  if (!budget.ok) useModelsStore.setState({ budgetError: budget.error.message });
  else if (budgetGuard.isFresh(budgetToken)) applyBudget(budget.value);
}

async function fetchSearchNotice(): Promise<void> {
  const result = await quire['search.notice']({});
  if (result.ok) useModelsStore.setState({ searchNotice: result.value.notice });
}

/** While searches run on BM25 alone, look again now and then: embedding finishes without an event. */
const NOTICE_RECHECK_MS = 20_000;

/** True when the first-run setup should be offered: nothing answers yet and the user did not put it off. */
export function setupNeeded(
  state: Pick<ModelsState, 'status' | 'settings' | 'setupDownloadIds' | 'downloads'>,
): boolean {
  const running = state.downloads.some(
    (download) => state.setupDownloadIds.includes(download.id) && download.state !== 'done',
  );
  if (running) return true;
  if (!state.status || !state.settings || state.settings.setupDismissed) return false;
  return state.status.roles.find((role) => role.role === 'answer')?.provider == null;
}

export function startModelsSync(onConnected: (listener: () => void) => () => void): () => void {
  const recheck = setInterval(() => {
    if (useModelsStore.getState().searchNotice !== null) void fetchSearchNotice();
  }, NOTICE_RECHECK_MS);
  const stops = [
    () => clearInterval(recheck),
    quire.on('models.onStatus', (status) => {
      applyStatus(status);
      void fetchSearchNotice();
      // Settings change behind the panel's back too: the setup saves a choice per role.
      void quire['models.settings']({}).then(applySettings);
    }),
    quire.on('library.onChanged', () => void fetchSearchNotice()),
    quire.on('memory.onBudget', applyBudget),
    quire.on('models.onDownload', noteDownload),
    onConnected(() => {
      void fetchModels();
      void fetchSearchNotice();
      void useModelsStore.getState().loadProposal();
    }),
  ];
  return () => stops.forEach((stop) => stop());
}
