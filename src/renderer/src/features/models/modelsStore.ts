import { create } from 'zustand';
import type {
  DownloadProgress,
  MemoryBudget,
  ModelRole,
  ModelSettings,
  ModelsStatus,
  RoleChoice,
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
  refresh: () => Promise<ErrorInfo | null>;
  chooseRole: (role: ModelRole, choice: RoleChoice | null) => Promise<ErrorInfo | null>;
  setServers: (servers: string[]) => Promise<ErrorInfo | null>;
  download: (model: string) => Promise<ErrorInfo | null>;
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
  refresh: async () => {
    const result = await quire['models.refresh']({});
    if (result.ok) applyStatus(result.value);
    return errorOf(result);
  },
  chooseRole: async (role, choice) => applySettings(await quire['models.chooseRole']({ role, choice })),
  setServers: async (servers) => applySettings(await quire['models.setServers']({ servers })),
  download: async (model) => {
    const result = await quire['models.download']({ model });
    if (result.ok)
      useModelsStore.setState((state) => ({
        downloads: result.value.reduce((list, progress) => upsertDownload(list, progress), state.downloads),
      }));
    return errorOf(result);
  },
  pauseDownload: async (downloadId) => applyDownload(await quire['models.pauseDownload']({ downloadId })),
  resumeDownload: async (downloadId) => applyDownload(await quire['models.resumeDownload']({ downloadId })),
  cancelDownload: async (downloadId) => applyDownload(await quire['models.cancelDownload']({ downloadId })),
}));

function applyStatus(status: ModelsStatus): void {
  statusGuard.noteEvent();
  budgetGuard.noteEvent();
  useModelsStore.setState({
    status,
    budget: status.memory,
    downloads: status.downloads,
    loadError: null,
    budgetError: null,
  });
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

export function startModelsSync(onConnected: (listener: () => void) => () => void): () => void {
  const stops = [
    quire.on('models.onStatus', applyStatus),
    quire.on('memory.onBudget', applyBudget),
    quire.on('models.onDownload', (download) =>
      useModelsStore.setState((state) => ({ downloads: upsertDownload(state.downloads, download) })),
    ),
    onConnected(() => void fetchModels()),
  ];
  return () => stops.forEach((stop) => stop());
}
