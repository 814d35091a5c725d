/*
 * The models layer as the rest of core sees it: periodic server detection, role resolution, provider
 * instances per role, downloads, and a status snapshot pushed on every change.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { DownloadProgress, MemoryBudget, ModelRole, ModelsStatus } from '../../shared/domain/models';
import { QuireError } from '../../shared/errors';
import type { ProbeOptions, ServerCandidate, ServerInventory } from './detection/detectServers';
import { detectServers, localCandidates, toDetectedServer } from './detection/detectServers';
import type { CatalogueEntry } from './downloads/catalogue';
import { MODEL_CATALOGUE } from './downloads/catalogue';
import type { DownloadManagerOptions } from './downloads/downloadManager';
import { DownloadManager } from './downloads/downloadManager';
import type { FetchLike } from './http/transport';
import { LocalModelChecks } from './llama/localModelChecks';
import { OllamaClient } from './ollama/ollamaClient';
import { OllamaChatModel, OllamaTextEmbedder } from './ollama/ollamaModels';
import { OpenAIClient } from './openai/openaiClient';
import { OpenAIChatModel, probeOpenAIEmbedder } from './openai/openaiModels';
import type { InProcessAllowance, ResolvedRole, RoleSettings } from './roles';
import { resolveRoles, toRoleResolution } from './roles';
import { SegmentPageEmbedder } from './segmentPageEmbedder';
import type { ChatModel, ModelRoles, PageEmbedder, TextEmbedder } from './types';

export interface LocalModel {
  chat: ChatModel;
  embedder: TextEmbedder;
}

/** A model a server holds in memory, for the memory budget. */
export interface LoadedServerModel {
  endpoint: string;
  name: string;
  sizeBytes: number;
  /** Part of sizeBytes held in GPU memory. */
  vramBytes: number;
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
  /** Loads a GGUF in-process (in its own process); provided by the composition root. */
  createLocalModel?: (path: string) => Promise<LocalModel>;
  /** From `--page-embedder` or QUIRE_PAGE_EMBEDDER: an ONNX page embedder. */
  pageEmbedderPath?: string | null;
  /** Loads an ONNX page embedder in its own process; provided by the composition root. */
  createPageEmbedder?: (path: string) => Promise<PageEmbedder>;
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
  catalogue?: readonly CatalogueEntry[];
  downloads?: Partial<Omit<DownloadManagerOptions, 'modelsDir' | 'onProgress'>>;
  onStatus?: (status: ModelsStatus) => void;
  onDownload?: (progress: DownloadProgress) => void;
}

const DEFAULT_DETECT_EVERY_MS = 3 * 60_000;

function roleKey(role: ResolvedRole): string {
  return [role.via, role.provider, role.endpoint, role.model].join('|');
}

export class ModelService implements ModelRoles {
  private servers: ServerInventory[] = [];
  private roles: ResolvedRole[];
  private readonly instances = new Map<string, Promise<unknown>>();
  private localModel: { path: string; loading: Promise<LocalModel> } | null = null;
  private refreshing: Promise<ModelsStatus> | null = null;
  private timer: unknown = null;
  private readonly downloads: DownloadManager;
  private readonly catalogue: readonly CatalogueEntry[];
  private readonly localChecks = new LocalModelChecks();
  /** ONNX page embedders that failed to load, with the reason, until the next start. */
  private readonly pageEmbedderProblems = new Map<string, string>();

  constructor(private readonly deps: ModelServiceDeps) {
    this.catalogue = deps.catalogue ?? MODEL_CATALOGUE;
    this.downloads = new DownloadManager({
      fetch: deps.fetch,
      ...deps.downloads,
      modelsDir: join(deps.dataDir, 'models'),
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

  status(): ModelsStatus {
    return {
      roles: this.roles.map(toRoleResolution),
      servers: this.servers.map(toDetectedServer),
      downloads: this.downloads.list(),
      memory: this.deps.memory(),
    };
  }

  /** Probes servers again and re-resolves roles; concurrent calls share one probe. */
  refresh(): Promise<ModelsStatus> {
    this.refreshing ??= (async () => {
      try {
        const candidates = this.deps.candidates?.() ?? localCandidates();
        this.servers = await detectServers(candidates, { fetch: this.deps.fetch, ...this.deps.probe });
        await this.localChecks.check(this.localModelPaths());
        this.applyResolution();
        return this.status();
      } finally {
        this.refreshing = null;
      }
    })();
    return this.refreshing;
  }

  /** Why a local GGUF cannot be used (truncated, corrupt, failed to load), or null when nothing is known against it. */
  problemWith(path: string): string | null {
    return this.localChecks.unusable().get(path) ?? null;
  }

  /** How each role is served now, with the details the public status leaves out. */
  resolvedRoles(): ResolvedRole[] {
    return this.roles.map((role) => ({ ...role }));
  }

  /** What each reachable Ollama holds in memory now (/api/ps); a server that fails to say is skipped. */
  async loadedServerModels(signal?: AbortSignal): Promise<LoadedServerModel[]> {
    const ollamas = this.servers.filter((server) => server.reachable && server.kind === 'ollama');
    const lists = await Promise.all(
      ollamas.map(async (server) => {
        try {
          const running = await this.ollama(server.endpoint).runningModels(signal);
          return running.map((model) => ({
            endpoint: server.endpoint,
            name: model.name,
            sizeBytes: model.sizeBytes,
            vramBytes: model.vramBytes,
          }));
        } catch {
          return [];
        }
      }),
    );
    return lists.flat();
  }

  async chatModel(role: 'decide' | 'answer' | 'see'): Promise<ChatModel | null> {
    if (await this.localChecks.check(this.localModelPaths())) this.applyResolution();
    const resolved = this.role(role);
    if (resolved.via === 'local') return (await this.loadLocal(resolved.model!)).chat;
    if (resolved.via !== 'server') return null;
    return this.instance('chat', resolved, async () => {
      if (resolved.provider === 'ollama') {
        return new OllamaChatModel(this.ollama(resolved.endpoint!), resolved.model!, resolved.supportsImages);
      }
      return new OpenAIChatModel(this.openai(resolved), resolved.model!, resolved.supportsImages);
    });
  }

  async textEmbedder(): Promise<TextEmbedder | null> {
    if (await this.localChecks.check(this.localModelPaths())) this.applyResolution();
    return this.embedderFor(this.role('embed'));
  }

  async pageEmbedder(): Promise<PageEmbedder | null> {
    const resolved = this.role('pageEmbed');
    if (resolved.via === 'local' && resolved.provider === 'onnx') return this.loadPageEmbedder(resolved);
    if (resolved.via === 'segments') {
      const text = await this.embedderFor({
        ...resolved,
        role: 'embed',
        via: resolved.provider === 'llama' ? 'local' : 'server',
      });
      return text === null
        ? null
        : this.instance('page', resolved, async () => new SegmentPageEmbedder(text));
    }
    if (resolved.via !== 'server' || resolved.provider !== 'openai') return null;
    return this.instance('page', resolved, async () => {
      const probed = await probeOpenAIEmbedder(this.openai(resolved), resolved.model!);
      if (probed.kind === 'multiVector') return probed.embedder;
      // A dense model listed under a ColQwen-like name still works, one vector per segment.
      return new SegmentPageEmbedder(probed.embedder);
    });
  }

  download(model: string): DownloadProgress {
    const entry = this.catalogue.find((candidate) => candidate.id === model);
    if (!entry) {
      throw new QuireError(
        'not_found',
        `Quire has no download called ${model}. Known: ${this.catalogue.map((item) => item.id).join(', ')}.`,
      );
    }
    return this.downloads.start({
      model: entry.id,
      url: entry.url,
      fileName: entry.fileName,
      sizeBytes: entry.sizeBytes,
      ...(entry.sha256 ? { sha256: entry.sha256 } : {}),
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

  /** The GGUF used in-process: the one given at start, else a finished catalogue download. */
  private localPath(): string | null {
    if (this.deps.localModelPath) return this.deps.localModelPath;
    for (const entry of this.catalogue) {
      if (!entry.roles.includes('answer')) continue;
      const path = this.downloads.filePath(entry.fileName);
      if (existsSync(path)) return path;
    }
    return null;
  }

  private resolve(): ResolvedRole[] {
    return resolveRoles({
      settings: this.deps.settings?.() ?? {},
      servers: this.servers,
      localModelPath: this.localPath(),
      pageEmbedderPath: this.deps.pageEmbedderPath ?? null,
      inProcess: this.deps.inProcess?.() ?? { allowed: true },
      unusableModels: new Map([...this.localChecks.unusable(), ...this.pageEmbedderProblems]),
    });
  }

  /** Local GGUFs the roles may use: the one given at start or downloaded, and paths chosen in settings. */
  private localModelPaths(): string[] {
    const chosen = Object.values(this.deps.settings?.() ?? {})
      .map((choice) => choice?.model)
      .filter((model): model is string => model !== undefined && /\.gguf$/i.test(model));
    const given = this.localPath();
    return [...new Set(given ? [given, ...chosen] : chosen)];
  }

  /** Re-resolves, drops instances of roles whose provider changed, and tells listeners. */
  private applyResolution(): void {
    this.roles = this.resolve();
    const live = new Set(this.roles.map(roleKey));
    for (const key of this.instances.keys())
      if (!live.has(key.slice(key.indexOf('#') + 1))) this.instances.delete(key);
    this.deps.onStatus?.(this.status());
  }

  private downloadChanged(progress: DownloadProgress): void {
    this.deps.onDownload?.(progress);
    if (progress.state === 'downloading' && progress.bytesDone > 0) return;
    if (progress.state === 'done') this.applyResolution();
    else this.deps.onStatus?.(this.status());
  }

  /** One instance per face (chat, text, page) of a resolved model. */
  private instance<T>(
    face: 'chat' | 'text' | 'page',
    role: ResolvedRole,
    create: () => Promise<T>,
  ): Promise<T> {
    const key = `${face}#${roleKey(role)}`;
    let existing = this.instances.get(key) as Promise<T> | undefined;
    if (!existing) {
      existing = create();
      this.instances.set(key, existing);
      // A failed creation (model missing, server gone) is retried on the next call.
      existing.catch(() => {
        if (this.instances.get(key) === existing) this.instances.delete(key);
      });
    }
    return existing;
  }

  private async embedderFor(resolved: ResolvedRole): Promise<TextEmbedder | null> {
    if (resolved.via === 'local') return (await this.loadLocal(resolved.model!)).embedder;
    if (resolved.via !== 'server') return null;
    const key: ResolvedRole = { ...resolved, role: 'embed', via: 'server' };
    return this.instance('text', key, async () => {
      if (resolved.provider === 'ollama')
        return OllamaTextEmbedder.create(this.ollama(resolved.endpoint!), resolved.model!);
      const probed = await probeOpenAIEmbedder(this.openai(resolved), resolved.model!);
      if (probed.kind !== 'text') {
        throw new QuireError(
          'model_failed',
          `\`${resolved.model}\` returns several vectors per text: choose it for page search instead.`,
        );
      }
      return probed.embedder;
    });
  }

  /** A page embedder that fails to load is set aside with its reason, and the role resolves again without it. */
  private loadPageEmbedder(resolved: ResolvedRole): Promise<PageEmbedder> {
    const path = resolved.model!;
    const create = this.deps.createPageEmbedder;
    if (!create) {
      return Promise.reject(
        new QuireError('model_unavailable', 'In-process page embedders are not available in this build.'),
      );
    }
    const loading = this.instance('page', resolved, () => create(path));
    loading.catch((error: unknown) => {
      this.pageEmbedderProblems.set(path, error instanceof Error ? error.message : String(error));
      this.applyResolution();
    });
    return loading;
  }

  private loadLocal(path: string): Promise<LocalModel> {
    if (this.localModel?.path === path) return this.localModel.loading;
    const create = this.deps.createLocalModel;
    if (!create) {
      return Promise.reject(
        new QuireError('model_unavailable', 'In-process models are not available in this build.'),
      );
    }
    const loading = create(path);
    this.localModel = { path, loading };
    loading.catch((error: unknown) => {
      if (this.localModel?.loading === loading) this.localModel = null;
      void this.localChecks.noteLoadFailure(path, error).then((noted) => noted && this.applyResolution());
    });
    return loading;
  }

  private ollama(endpoint: string): OllamaClient {
    return new OllamaClient({
      baseUrl: endpoint,
      idleTimeoutMs: this.deps.callTimeoutMs,
      fetch: this.deps.fetch,
    });
  }

  private openai(role: ResolvedRole): OpenAIClient {
    return new OpenAIClient({
      baseUrl: role.endpoint!,
      apiKey: role.apiKey,
      idleTimeoutMs: this.deps.callTimeoutMs,
      fetch: this.deps.fetch,
    });
  }
}
