/*
 * The models layer as the rest of core sees it: periodic server detection, the models folder, role
 * resolution, provider instances per role, downloads, and a status snapshot pushed on every change.
 */
import type { DownloadProgress, MemoryBudget, ModelRole, ModelsStatus } from '../../shared/domain/models';
import { roleAdvice, TYPICAL_MACHINE, type AdviceMachine } from './catalogue/advice';
import { CATALOGUE, type CatalogueModel } from './catalogue/catalogue';
import {
  localModelFor,
  modelsDirOf,
  scanModelsFolder,
  type LocalModel,
  type ModelsFolder,
} from './catalogue/modelsFolder';
import type { ProbeOptions, ServerCandidate, ServerInventory } from './detection/detectServers';
import { detectServers, localCandidates, toDetectedServer } from './detection/detectServers';
import type { OcrModelSource } from './downloads/catalogueDownloads';
import type { DownloadManagerOptions } from './downloads/downloadManager';
import { downloadsFor } from './downloads/catalogueDownloads';
import { DownloadManager } from './downloads/downloadManager';
import type { FetchLike } from './http/transport';
import { LocalFileChecks } from './localFileChecks';
import type { InProcessAllowance, ResolvedRole, RoleSettings, VisionModelFiles } from './roles';
import { resolveRoles, ROLE_ORDER, toRoleResolution } from './roles';
import { InProcessInstances, type InProcessInstancesDeps } from './inProcessInstances';
import { ServerProviders } from './serverProviders';
import type { ChatModel, ModelRoles, PageEmbedder, TextEmbedder } from './types';

/** A model a server holds in memory, for the memory budget. */
export interface LoadedServerModel {
  endpoint: string;
  server: string;
  name: string;
  /** Null when the server does not say how much it holds. */
  sizeBytes: number | null;
  /** Part of sizeBytes held in GPU memory. */
  vramBytes: number | null;
}

export interface IntervalTimers {
  setInterval(callback: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
}

export interface ModelServiceDeps {
  /** Downloads go to `<dataDir>/models`. */
  dataDir: string;
  /** The memory service's current budget, shown in the status as is. */
  memory: () => MemoryBudget;
  settings?: () => RoleSettings;
  /** From `--model` or QUIRE_MODEL. */
  localModelPath?: string | null;
  createLocalModel?: InProcessInstancesDeps['createLocalModel'];
  /** From `--embedder` or QUIRE_EMBEDDER: an ONNX sentence embedder for the embed role. */
  embedderPath?: string | null;
  createTextEmbedder?: InProcessInstancesDeps['createTextEmbedder'];
  /** From `--page-embedder` or QUIRE_PAGE_EMBEDDER: an ONNX page embedder. */
  pageEmbedderPath?: string | null;
  createPageEmbedder?: InProcessInstancesDeps['createPageEmbedder'];
  /** From `--vision-model` and `--vision-projector`: a vision model run in-process. */
  visionModel?: VisionModelFiles | null;
  createVisionModel?: InProcessInstancesDeps['createVisionModel'];
  /** Whether memory allows an in-process model now. */
  inProcess?: () => InProcessAllowance;
  /** Servers to probe: the known local ports plus endpoints the user added. */
  candidates?: () => ServerCandidate[];
  probe?: ProbeOptions;
  detectEveryMs?: number;
  timers?: IntervalTimers;
  /** Longest silence allowed per model call. */
  callTimeoutMs?: number;
  fetch?: FetchLike;
  /** The models offered; the built-in catalogue unless a test gives its own. */
  catalogue?: readonly CatalogueModel[];
  /** Where catalogue files are downloaded from: Hugging Face, or a mirror (HF_ENDPOINT). */
  hubEndpoint?: string;
  /** Tesseract's fast models: the OCR languages in use, and where they come from (GitHub unless a stand-in). */
  ocrModels?: OcrModelSource;
  downloads?: Partial<Omit<DownloadManagerOptions, 'modelsDir' | 'onProgress'>>;
  onStatus?: (status: ModelsStatus) => void;
  onDownload?: (progress: DownloadProgress) => void;
}

const DEFAULT_DETECT_EVERY_MS = 3 * 60_000;

export class ModelService implements ModelRoles {
  private servers: ServerInventory[] = [];
  private folder: ModelsFolder;
  private roles: ResolvedRole[];
  private readonly providers: ServerProviders;
  private readonly inProcess: InProcessInstances;
  private refreshing: Promise<ModelsStatus> | null = null;
  private nextRefresh: Promise<ModelsStatus> | null = null;
  private timer: unknown = null;
  private readonly downloads: DownloadManager;
  private readonly localChecks = new LocalFileChecks();
  readonly catalogue: readonly CatalogueModel[];
  readonly modelsDir: string;

  constructor(private readonly deps: ModelServiceDeps) {
    this.providers = new ServerProviders({ callTimeoutMs: deps.callTimeoutMs, fetch: deps.fetch });
    this.inProcess = new InProcessInstances({
      ...(deps.createLocalModel ? { createLocalModel: deps.createLocalModel } : {}),
      ...(deps.createTextEmbedder ? { createTextEmbedder: deps.createTextEmbedder } : {}),
      ...(deps.createPageEmbedder ? { createPageEmbedder: deps.createPageEmbedder } : {}),
      ...(deps.createVisionModel ? { createVisionModel: deps.createVisionModel } : {}),
      onLoadFailure: (kind, key, error) =>
        void this.localChecks
          .noteLoadFailure(kind, key, error)
          .then((noted) => noted && this.applyResolution()),
    });
    this.catalogue = deps.catalogue ?? CATALOGUE;
    this.modelsDir = modelsDirOf(deps.dataDir);
    this.folder = { dir: this.modelsDir, presentFiles: new Set(), otherGgufs: [], unusable: new Map() };
    this.downloads = new DownloadManager({
      fetch: deps.fetch,
      ...deps.downloads,
      modelsDir: this.modelsDir,
      onProgress: (progress) => this.downloadChanged(progress),
    });
    this.roles = this.resolve();
  }

  /** First detection now, then every few minutes. */
  async start(): Promise<ModelsStatus> {
    const status = await this.refresh();
    if (this.timer === null) {
      const timers = this.deps.timers ?? { setInterval, clearInterval };
      const handle = timers.setInterval(
        () => void this.refresh().catch(() => undefined),
        this.deps.detectEveryMs ?? DEFAULT_DETECT_EVERY_MS,
      );
      (handle as { unref?: () => void } | null)?.unref?.();
      this.timer = handle;
    }
    return status;
  }

  stop(): void {
    if (this.timer === null) return;
    (this.deps.timers ?? { setInterval, clearInterval }).clearInterval(this.timer as never);
    this.timer = null;
  }

  /** Stops detection and running downloads (their partial files stay) and ends in-process models. */
  async dispose(): Promise<void> {
    this.stop();
    await this.downloads.dispose();
    await this.inProcess.dispose();
  }

  status(): ModelsStatus {
    return {
      roles: this.roles.map(toRoleResolution),
      servers: this.servers.map(toDetectedServer),
      downloads: this.downloads.list(),
      memory: this.deps.memory(),
      unusableFiles: [...this.unusableFiles()].map(([path, reason]) => ({ path, reason })),
    };
  }

  /**
   * Probes servers and the models folder again and re-resolves roles. A call made while a probe runs
   * gets one more probe after it (a file that finished downloading meanwhile must be seen); calls made
   * meanwhile share that one.
   */
  refresh(): Promise<ModelsStatus> {
    if (this.refreshing) {
      this.nextRefresh ??= this.refreshing
        .catch(() => undefined)
        .then(() => {
          this.nextRefresh = null;
          return this.refresh();
        });
      return this.nextRefresh;
    }
    const probe = (async () => {
      try {
        const candidates = this.deps.candidates?.() ?? localCandidates();
        const [servers, folder] = await Promise.all([
          detectServers(candidates, { fetch: this.deps.fetch, ...this.deps.probe }),
          scanModelsFolder(this.modelsDir, this.catalogue),
        ]);
        this.servers = servers;
        this.folder = folder;
        await this.checkLocalFiles();
        this.applyResolution();
        return this.status();
      } finally {
        this.refreshing = null;
      }
    })();
    this.refreshing = probe;
    return probe;
  }

  /** Why a local GGUF cannot be used (truncated, corrupt, failed to load), or null when nothing is known against it. */
  problemWith(path: string): string | null {
    return this.unusableFiles().get(path) ?? null;
  }

  /** Servers found at the last detection, with what each model can do. */
  inventory(): ServerInventory[] {
    return this.servers.map((server) => ({ ...server }));
  }

  /** The models folder as last scanned. */
  modelsFolder(): ModelsFolder {
    return this.folder;
  }

  /** How each role is served now, with the details the public status leaves out. */
  resolvedRoles(): ResolvedRole[] {
    return this.roles.map((role) => ({ ...role }));
  }

  /** The machine the advice is for: the measured one, or a typical one before measuring. */
  adviceMachine(): AdviceMachine {
    const budget = this.deps.memory();
    if (budget.totalBytes <= 0) return TYPICAL_MACHINE;
    return {
      totalBytes: budget.totalBytes,
      unifiedMemory: budget.unifiedMemory,
      appleSilicon: budget.unifiedMemory,
    };
  }

  /** How to get a model for `role` on this machine. */
  advice(role: ModelRole): string {
    return roleAdvice(role, this.adviceMachine(), this.modelsDir);
  }

  /**
   * What each reachable server holds in memory now: Ollama says it (/api/ps, with the part in VRAM);
   * other servers do not, so their loaded models are listed with an unknown size.
   */
  async loadedServerModels(signal?: AbortSignal): Promise<LoadedServerModel[]> {
    const lists = await Promise.all(
      this.servers
        .filter((server) => server.reachable)
        .map(async (server): Promise<LoadedServerModel[]> => {
          const about = { endpoint: server.endpoint, server: server.label };
          if (server.kind !== 'ollama') {
            const names = new Set(
              this.roles.filter((role) => role.endpoint === server.endpoint).map((role) => role.model),
            );
            return [...names].flatMap((name) =>
              name ? [{ ...about, name, sizeBytes: null, vramBytes: null }] : [],
            );
          }
          const running = await this.providers
            .ollama(server.endpoint)
            .runningModels(signal)
            .catch(() => []);
          return running.map((model) => ({
            ...about,
            name: model.name,
            sizeBytes: model.sizeBytes,
            vramBytes: model.vramBytes,
          }));
        }),
    );
    return lists.flat();
  }

  async chatModel(role: 'decide' | 'answer' | 'see'): Promise<ChatModel | null> {
    if (await this.checkLocalFiles()) this.applyResolution();
    const resolved = this.role(role);
    if (resolved.via === 'local' && resolved.projectorPath)
      return this.inProcess.visionModel(resolved.model!, resolved.projectorPath);
    if (resolved.via === 'local') return (await this.inProcess.model(resolved.model!)).chat;
    return resolved.via === 'server' ? this.providers.chat(resolved) : null;
  }

  async textEmbedder(): Promise<TextEmbedder | null> {
    if (await this.checkLocalFiles()) this.applyResolution();
    return this.embedderFor(this.role('embed'));
  }

  async pageEmbedder(): Promise<PageEmbedder | null> {
    const resolved = this.role('pageEmbed');
    if (resolved.via === 'local' && resolved.provider === 'onnx')
      return this.inProcess.pageEmbedder(resolved.model!);
    if (resolved.via === 'segments') {
      const via = resolved.provider === 'llama' || resolved.provider === 'onnx' ? 'local' : 'server';
      const text = await this.embedderFor({ ...resolved, role: 'embed', via });
      return text === null ? null : this.providers.segments(resolved, text);
    }
    if (resolved.via !== 'server' || resolved.provider !== 'openai') return null;
    return this.providers.page(resolved);
  }

  /** Downloads every file of a catalogue model (weights, projector, companions; OCR models by language). */
  download(modelId: string): DownloadProgress[] {
    return downloadsFor(modelId, this.catalogue, this.deps).map((request) => this.downloads.start(request));
  }

  /** Pulls a model into a running Ollama, with Ollama's own progress. */
  pull(ollamaModel: string, endpoint: string): DownloadProgress {
    return this.downloads.start({
      kind: 'ollama',
      id: `ollama:${ollamaModel}`,
      model: ollamaModel,
      endpoint,
    });
  }

  pauseDownload(downloadId: string): DownloadProgress {
    return this.downloads.pause(downloadId);
  }

  resumeDownload(downloadId: string): DownloadProgress {
    return this.downloads.resume(downloadId);
  }

  cancelDownload(downloadId: string): Promise<DownloadProgress> {
    return this.downloads.cancel(downloadId);
  }

  /** Resolves when a download's current run stops (done, failed, paused or cancelled). */
  downloadSettled(downloadId: string): Promise<DownloadProgress> {
    return this.downloads.settled(downloadId);
  }

  private role(role: ModelRole): ResolvedRole {
    return this.roles.find((candidate) => candidate.role === role)!;
  }

  /** What the models folder offers each role. */
  private folderModels(): Partial<Record<ModelRole, LocalModel>> {
    const localModels: Partial<Record<ModelRole, LocalModel>> = {};
    for (const role of ROLE_ORDER) {
      const local = localModelFor(role, this.folder, this.catalogue);
      if (local) localModels[role] = local;
    }
    return localModels;
  }

  /** Local GGUFs the roles may use: `--model`, the models folder's, and paths chosen in settings. */
  private localModelPaths(): string[] {
    const chosen = Object.values(this.deps.settings?.() ?? {})
      .map((choice) => choice?.model)
      .filter((model): model is string => model !== undefined && /\.gguf$/i.test(model));
    const folder = Object.values(this.folderModels())
      .filter((local) => local.runtimeReady && /\.gguf$/i.test(local.path))
      .map((local) => local.path);
    const given = this.deps.localModelPath ? [this.deps.localModelPath] : [];
    return [...new Set([...given, ...folder, ...chosen])];
  }

  /** The vision model pairs the see role may run in-process: the one given at launch, the models folder's. */
  private visionPairs(): VisionModelFiles[] {
    const local = this.folderModels().see;
    return [
      ...(this.deps.visionModel ? [this.deps.visionModel] : []),
      ...(local?.runtimeReady && local.projectorPath
        ? [{ modelPath: local.path, projectorPath: local.projectorPath }]
        : []),
    ];
  }

  /** Files that cannot be used, by path: the models folder's from its scan, then what the checks found. */
  private unusableFiles(): Map<string, string> {
    return new Map([...this.folder.unusable, ...this.localChecks.unusable()]);
  }

  private checkLocalFiles(): Promise<boolean> {
    return this.localChecks.check(this.localModelPaths(), this.visionPairs());
  }

  private resolve(): ResolvedRole[] {
    const localModels = this.folderModels();
    return resolveRoles({
      settings: this.deps.settings?.() ?? {},
      servers: this.servers,
      localModelPath: this.deps.localModelPath ?? null,
      localModels,
      embedderPath: this.deps.embedderPath ?? null,
      pageEmbedderPath: this.deps.pageEmbedderPath ?? null,
      inProcess: this.deps.inProcess?.() ?? { allowed: true },
      visionModel: this.deps.visionModel ?? null,
      unusableModels: this.unusableFiles(),
      advice: (role) => this.advice(role),
    });
  }

  /** Re-resolves, drops instances of roles whose provider changed, and tells listeners. */
  private applyResolution(): void {
    this.roles = this.resolve();
    this.providers.keepOnly(this.roles);
    this.deps.onStatus?.(this.status());
  }

  private downloadChanged(progress: DownloadProgress): void {
    this.deps.onDownload?.(progress);
    if (progress.state === 'downloading' && progress.bytesDone > 0) return;
    // A finished file or pull can change what serves a role: look again.
    if (progress.state === 'done') void this.refresh().catch(() => undefined);
    else this.deps.onStatus?.(this.status());
  }

  private async embedderFor(resolved: ResolvedRole): Promise<TextEmbedder | null> {
    if (resolved.via === 'local' && resolved.provider === 'onnx')
      return this.inProcess.textEmbedder(resolved.model!);
    if (resolved.via === 'local') return (await this.inProcess.model(resolved.model!)).embedder;
    return resolved.via === 'server' ? this.providers.text(resolved) : null;
  }
}
