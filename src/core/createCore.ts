/**
 * The composition root: configuration in, services out. Nothing is opened at import time; `start()`
 * opens the stores and begins watching, `dispose()` releases everything in reverse order.
 */
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { EventName, EventPayload } from '../shared/ipc/contract';
import { QuireError } from '../shared/errors';
import { AgentService } from './agent/agentService';
import type { AgentLimits } from './agent/limits';
import { createAgentPorts } from './agentPorts';
import { createCallHandlers } from './api/callHandlers';
import { createDispatcher, type Dispatch } from './api/dispatcher';
import type { CoreServices } from './coreServices';
import { Emitter } from './common/emitter';
import { createDocumentPool, type DocumentPool } from './documents/pool/documentPool';
import { OpenPdfReaders } from './documents/pdf/openPdfReaders';
import { OcrStore } from './documents/ocr/ocrStore';
import { PageImageStore } from './documents/render/pageImageStore';
import { DEFAULT_LONG_EDGE } from './documents/render/raster';
import { Index } from './index/openIndex';
import type { LibraryLocation } from './location/libraryLocation';
import { LocationSettings, readLocationSetting } from './location/locationSetting';
import { publishingPool } from './location/publishingPool';
import { takeDataDirWriter } from './location/dataDirWriter';
import { explainStoreFailure, openSharedLibrary, type SharedLibrary } from './location/sharedLibrary';
import { followWriter, underFolders, WriterFollower } from './location/sharedFollowing';
import type { WriterLease } from './location/writerLease';
import { objectStoreFiles } from './location/storedFiles';
import { BackgroundEmbedding } from './ingestion/backgroundEmbedding';
import { Ingestion } from './ingestion/ingestion';
import { OcrSettingsStore } from './ingestion/ocrSettingsStore';
import { PageTranscriber } from './ingestion/pageTranscriber';
import { PasswordVault, type SecretStore } from './ingestion/passwordVault';
import { LibraryChangeFeed } from './library/libraryChanges';
import { LibraryService } from './library/libraryService';
import { indexCacheLimitsHere, watchedQuireMemory, workersAllowed } from './memory/quireHoldings';
import { modelsDirOf } from './models/catalogue/modelsFolder';
import { localCandidates, userCandidates } from './models/detection/detectServers';
import { createLocalRuntimes } from './models/localRuntimes';
import { ModelService } from './models/modelService';
import { serverMemoryEntries } from './models/serverMemoryEntries';
import { readMachineFacts } from './models/setup/machineFacts';
import { SetupService } from './models/setup/setupService';
import { ServerMemoryTracker } from './memory/serverMemory';
import { ModelSettingsStore } from './models/modelSettingsStore';
import { RetrievalService } from './retrieval/retrievalService';
import { checkSearchMode } from './search/chunkSearch';
import { chunkSearchDeps } from './search/coreSearch';
import { WebService, webDownloadsFolder } from './web/webService';
import { UpdateService, type Updater } from './updates/updateService';
import { withoutMcpSharing, type McpSharingService } from './mcpSharingPort';
import type { McpSharingStatus } from '../shared/domain/mcpSharing';

/** Makes the desktop app's MCP switch for this core (mcp/appMcpSharing.ts). */
export type AppMcpSharing = (deps: {
  dataDir: string;
  /** The core the MCP sessions read, once it exists (the root builds the switch first). */
  core: () => Core;
  onStatus: (status: McpSharingStatus) => void;
}) => McpSharingService;

export interface CoreConfig {
  /** Where Quire keeps its library list, index, page images, models and conversations. */
  dataDir: string;
  /**
   * A shared library on object storage (`--library s3://bucket/prefix`): its index lives there
   * instead of under the data dir. A core that ingests is its one writer; one that does not reads.
   */
  library?: LibraryLocation | null;
  /** Watch library folders for changes (the app and `quire serve`; not one-shot CLI commands). */
  watch?: boolean;
  /**
   * Open the library as a reader (`quire mcp`): another process (the app) writes it, so nothing is
   * written here (no library.json, no index rows or tidying, no folders scanned or watched), and
   * `catchUp()` follows what that writer commits. A data folder with no library yet is an error.
   */
  readOnly?: boolean;
  /**
   * What this writer of a local data folder is, as a second writer is told when refused ("The Quire
   * app", "quire index"; default "Another Quire process"). A writer holds the folder's writer lock
   * while it runs (see dataDirWriter); readers take none.
   */
  writerName?: string;
  /** Index files as they appear; `quire library list` only lists. */
  ingest?: boolean;
  /** Render page images while indexing. */
  renderImages?: boolean;
  /** Read scanned pages with OCR (the saved setting decides when absent; false is `--no-ocr`). */
  ocr?: boolean;
  /** Long edge of stored page images in pixels. */
  imageLongEdge?: number;
  /** Worker threads that read and render documents; the machine's parallelism by default. */
  workers?: number;
  /** Time limit for reading or rendering one document. */
  documentTimeoutMs?: number;
  /**
   * The most pages of one PDF that are indexed (`--max-pages`; DEFAULT_MAX_PAGES_PER_DOCUMENT, 10,000,
   * when absent): a longer file is indexed up to here and its error says so.
   */
  maxPagesPerDocument?: number;
  /** Idle document readers and page embedder hosts exit after this long (default a minute). */
  idleReleaseMs?: number;
  /** OS-encrypted secret storage (the desktop app's safeStorage); none headless. */
  secrets?: SecretStore | null;
  /** A local GGUF that serves every text role (`--model`, QUIRE_MODEL). */
  modelPath?: string | null;
  /** An ONNX sentence embedder folder (BGE, E5, MiniLM) for the embed role (`--embedder`, QUIRE_EMBEDDER). */
  embedderPath?: string | null;
  /** An ONNX page embedder (ColModernVBERT-style) run in-process (`--page-embedder`, QUIRE_PAGE_EMBEDDER). */
  pageEmbedderPath?: string | null;
  /**
   * A vision model (GGUF) and its projector (mmproj) run in-process for the `see` role when no server
   * offers one (`--vision-model`, `--vision-projector`; QUIRE_VISION_MODEL, QUIRE_VISION_PROJECTOR).
   */
  visionModelPath?: string | null;
  visionProjectorPath?: string | null;
  /** A reranker GGUF (`--reranker`, QUIRE_RERANKER); else a downloaded catalogue reranker, if any. */
  rerankerPath?: string | null;
  /** Look for Ollama and OpenAI-compatible servers on this machine's known ports. */
  detectServers?: boolean;
  /** Look for model servers at start and every few minutes; commands that use no model skip it. */
  findModels?: boolean;
  /** Model servers the user added (base URLs of Ollama or OpenAI-compatible servers). */
  servers?: string[];
  /** GPU use of in-process models; 'auto' picks Metal/CUDA/Vulkan where present. */
  gpu?: 'auto' | false;
  /** CPU threads of in-process models; node-llama-cpp's choice by default. */
  modelThreads?: number;
  /** Embed indexed content in the background whenever an embedder is available. */
  embedInBackground?: boolean;
  /** Let searches use the vectors already in the index without embedding more (one-shot commands). */
  attachEmbeddings?: boolean;
  /** Where catalogue models are downloaded from: Hugging Face, or a mirror (HF_ENDPOINT). */
  hubEndpoint?: string;
  /** Where Tesseract's fast OCR models are downloaded from: GitHub's raw host unless a test's stand-in. */
  ocrModelEndpoint?: string;
  agentLimits?: Partial<AgentLimits>;
  /** The installed desktop app's updater (electron-updater); absent elsewhere. */
  updater?: Updater | null;
  /** Opens a file in the system's own viewer: the desktop app passes Electron's shell.openPath. */
  openFile?: ((path: string) => Promise<void>) | null;
  /**
   * The desktop app's switch that lets other apps use the library over MCP (appMcpSharing). Absent
   * where there is no switch: the CLI, `quire serve`.
   */
  mcpSharing?: AppMcpSharing | null;
}

export type CoreEvents = { [K in EventName]: EventPayload<K> };

export interface Core extends CoreServices {
  readonly config: Readonly<CoreConfig>;
  /** Every contract event, for transports to forward. */
  readonly events: Emitter<CoreEvents>;
  /** Every contract call, validated. */
  readonly dispatch: Dispatch;
  /** Vectors for indexed content: attached to searches, filled in the background or on request. Open after `start()`. */
  readonly embedding: BackgroundEmbedding;
  start(): Promise<void>;
  /** A reader (of a shared library, or `readOnly`) reloads its writer's folders, documents, collections, vectors. */
  refreshReader(): Promise<void>;
  /** A reader catches up with its writer when that committed something since the last time; nothing for a writer. */
  catchUp(): Promise<void>;
  dispose(): Promise<void>;
}

export function createCore(config: CoreConfig): Core {
  const events = new Emitter<CoreEvents>();
  const library = new LibraryService({
    dataDir: config.dataDir,
    watch: config.watch ?? false,
    documentFoldersInDataDir: [webDownloadsFolder(config.dataDir)],
    // Nothing will read the files (`quire library add`): the listing counts their pages itself.
    countPagesWhenListed: config.ingest === false,
  });
  const pageImages = new PageImageStore(join(config.dataDir, 'pages'));
  const ocrResults = new OcrStore(join(config.dataDir, 'ocr'));
  const pdfReaders = new OpenPdfReaders();
  const ocrSettings = new OcrSettingsStore(
    config.dataDir,
    config.ocr === false,
    () => ingestion?.ocrSettingsChanged(),
    modelsDirOf(config.dataDir),
  );
  // Tesseract's fast models are set up for the OCR languages in use.
  const ocrModels = { languages: () => ocrSettings.current.languages, endpoint: config.ocrModelEndpoint };
  const libraryChanges = new LibraryChangeFeed(library, (change) => events.emit('library.onChanged', change));

  const memory = watchedQuireMemory({ pool: () => pool, index: () => index });
  memory.onChange((budget) => events.emit('memory.onBudget', budget));
  const local = createLocalRuntimes(config, memory);
  const modelSettings = new ModelSettingsStore(config.dataDir, () => models.refresh());
  const models: ModelService = new ModelService({
    dataDir: config.dataDir,
    memory: () => memory.budget,
    localModelPath: config.modelPath ?? null,
    createLocalModel: (path) => local.models.load(path),
    embedderPath: config.embedderPath ?? null,
    createTextEmbedder: (path) => local.textEmbedders.load(path),
    pageEmbedderPath: config.pageEmbedderPath ?? null,
    createPageEmbedder: (path) => local.pageEmbedders.load(path),
    visionModel:
      config.visionModelPath && config.visionProjectorPath
        ? { modelPath: config.visionModelPath, projectorPath: config.visionProjectorPath }
        : null,
    createVisionModel: (modelPath, projectorPath) => local.visionModels.load(modelPath, projectorPath),
    settings: () => modelSettings.current.roles,
    candidates: () => [
      ...(config.detectServers === false ? [] : localCandidates()),
      ...userCandidates(
        [...new Set([...(config.servers ?? []), ...modelSettings.current.servers])].map((url) => ({ url })),
      ),
    ],
    hubEndpoint: config.hubEndpoint,
    ocrModels,
    onStatus: (status) => {
      events.emit('models.onStatus', status);
      void serverMemory.update();
    },
    onDownload: (progress) => {
      events.emit('models.onDownload', progress);
      ocrSettings.noteDownload(progress);
    },
  });
  /** What model servers hold in memory counts against the same budget as Quire's own models. */
  const serverMemory = new ServerMemoryTracker(
    { heldMemory: (signal) => serverMemoryEntries(models, signal) },
    memory,
  );
  const setup = new SetupService({
    models,
    settings: modelSettings,
    machine: () => readMachineFacts(models.modelsDir),
    hubEndpoint: config.hubEndpoint,
    ocrModels,
  });

  const retrieval = new RetrievalService({
    index: () => core.index,
    chatModel: () => models.chatModel('decide'),
    memory,
    dataDir: config.dataDir,
    rerankerPath: config.rerankerPath ?? null,
    gpu: config.gpu ?? 'auto',
    ...(config.modelThreads ? { threads: config.modelThreads } : {}),
    // A search never falls back silently: dense without vectors refuses, hybrid says BM25 only.
    checkMode: (mode) => checkSearchMode(chunkSearchDeps(core), mode),
  });

  const web = new WebService({
    dataDir: config.dataDir,
    addLibraryFolder: (path) => library.addFolder(path),
    isLibraryFolder: (path) => library.rootPaths().includes(path),
  });

  const updates = new UpdateService({
    dataDir: config.dataDir,
    updater: config.updater ?? null,
    onStatus: (status) => events.emit('updates.onStatus', status),
  });

  const mcpSharing =
    config.mcpSharing?.({
      dataDir: config.dataDir,
      core: () => core,
      onStatus: (status) => events.emit('mcpSharing.onStatus', status),
    }) ?? withoutMcpSharing();

  let index: Index | undefined;
  let shared: SharedLibrary | null = null;
  let ingestion: Ingestion | undefined;
  let pool: DocumentPool | undefined;
  let agent: AgentService | undefined;
  let embedding: BackgroundEmbedding | undefined;
  let stopFollowing: (() => void) | undefined;
  let follower: WriterFollower | null = null;
  let writerLock: WriterLease | null = null;
  const opened = <T>(service: T | undefined, name: string): T => {
    if (!service) throw new QuireError('internal', `The ${name} is not open yet.`);
    return service;
  };

  /** What `start()` opens, in order; see there for a start that fails halfway. */
  const openServices = async (): Promise<void> => {
    // The CLI's --library wins; otherwise the app's saved setting; otherwise the local data folder.
    // A desktop whose setting does not make it the writer opens the library read-only and indexes nothing.
    const setting = config.library !== undefined ? null : await readLocationSetting(config.dataDir);
    const location = config.library ?? setting?.location ?? null;
    if (location) {
      const writes = (config.ingest ?? true) && !config.readOnly && (setting?.writer ?? true);
      shared = await openSharedLibrary(location, writes);
      // Page images and OCR results live in the library too: readers never need the original files.
      pageImages.shareThrough(objectStoreFiles(shared.objects, 'pages'));
      ocrResults.shareThrough(objectStoreFiles(shared.objects, 'ocr'));
    }
    const reader = shared ? !shared.writer : config.readOnly === true;
    const localIndex = join(config.dataDir, 'index');
    if (!shared && reader) await requireLibraryAt(config.dataDir, localIndex);
    // Before anything is opened: a second writer would tidy away content the first is still writing.
    if (!shared && !reader)
      writerLock = await takeDataDirWriter(config.dataDir, {
        name: config.writerName ?? 'Another Quire process',
      });
    index = await Index.open({
      uri: shared ? shared.indexUri : localIndex,
      ...(shared ? { storageOptions: shared.storageOptions } : {}),
      readOnly: reader,
      loadPageImage: (relativePath) => pageImages.read(relativePath),
      cacheLimits: indexCacheLimitsHere(),
      // Page images are content too: they go when their content goes (at open, after a crash, too).
      onContentRemoved: async (hashes) => {
        for (const hash of hashes) {
          await pageImages.remove(hash).catch(() => undefined);
          await ocrResults.remove(hash).catch(() => undefined);
        }
      },
    });
    // Beside the app on its own data folder, library.json is the writer's: its folders are read from there.
    await library.start(index.documents, { readOnly: reader, writerFolders: !shared });
    await ocrSettings.load();
    const ownPool = createDocumentPool({
      ...(config.workers ? { size: config.workers } : {}),
      ...(config.documentTimeoutMs ? { jobTimeoutMs: config.documentTimeoutMs } : {}),
      ...(config.maxPagesPerDocument ? { maxPagesPerDocument: config.maxPagesPerDocument } : {}),
      idleExitMs: config.idleReleaseMs,
      workerLimit: (work) => workersAllowed(memory.budget, work, ownPool.size),
    });
    pool = shared ? publishingPool(ownPool, ocrResults) : ownPool;
    const passwords = new PasswordVault(config.secrets ?? null);
    ingestion = new Ingestion({
      library,
      index,
      pool,
      images: pageImages,
      passwords,
      renderImages: config.renderImages ?? true,
      ...(config.imageLongEdge ? { imageLongEdge: config.imageLongEdge } : {}),
      ocr: {
        store: ocrResults,
        settings: ocrSettings,
        transcriber: new PageTranscriber({
          models,
          store: ocrResults,
          pool,
          images: pageImages,
          longEdge: config.imageLongEdge ?? DEFAULT_LONG_EDGE,
          password: (id) => passwords.get(id),
        }),
      },
      ...(shared ? { ownsDocument: underFolders(() => library.rootPaths()) } : {}),
      dataDir: config.dataDir,
    });
    ingestion.events.on('progress', (progress) => events.emit('library.onProgress', progress));
    agent = new AgentService({
      ports: createAgentPorts(core, models),
      dataDir: config.dataDir,
      ...(config.agentLimits ? { limits: config.agentLimits } : {}),
    });
    agent.onEvent((event) => events.emit('chat.onEvent', event));
    await memory.refresh();
    await modelSettings.load();
    await web.load();
    if (config.watch) serverMemory.watch();
    if (config.findModels ?? true) await models.start();
    const background = new BackgroundEmbedding(index.vectors, models);
    embedding = background;
    const indexing = ingestion;
    background.events.on('progress', (progress) => {
      if (progress.kind === 'page') indexing.pageVectorProgress(progress.done, progress.total);
    });
    if (config.embedInBackground ?? config.watch ?? false) {
      ingestion.events.on('idle', () => background.request());
      events.on('models.onStatus', () => background.request());
      background.request();
    } else if (config.attachEmbeddings) {
      // One-shot commands search with the vectors already there, and never start a long pass.
      await background.attach().catch(() => undefined);
    }
    if ((config.ingest ?? true) && !reader) ingestion.start();
    if (reader) {
      const tables = index;
      const libraryFile = join(config.dataDir, 'library.json');
      // What the writer committed: its folder list (here only) and every table's version.
      follower = new WriterFollower(
        async () => `${shared ? '' : await fileMark(libraryFile)} ${await tables.versions()}`,
        () => core.refreshReader(),
      );
    }
    if (shared && !shared.writer && config.watch) stopFollowing = followWriter(() => core.refreshReader());
    await updates.load();
    await mcpSharing.load();
  };

  const core: Core = {
    config,
    library,
    libraryChanges,
    events,
    get index() {
      return opened(index, 'index');
    },
    get ingestion() {
      return opened(ingestion, 'ingestion queue');
    },
    get agent() {
      return opened(agent, 'agent');
    },
    get embedding() {
      return opened(embedding, 'embedding');
    },
    setup,
    pageImages,
    memory,
    models,
    retrieval,
    web,
    modelSettings,
    updates,
    mcpSharing,
    ocrSettings,
    location: new LocationSettings(config.dataDir, () => ({
      active: shared ? { uri: shared.location.uri, writer: shared.writer } : null,
      chosenByCommandLine: config.library !== undefined,
    })),
    ocrResults,
    pdfReaders,
    openFile: config.openFile ?? null,
    dispatch: async (name, input, options) => {
      const result = await dispatch(name, input, options);
      // A shared library's store out of reach: one clear sentence instead of the storage SDK's chain.
      const explained =
        !result.ok && shared ? explainStoreFailure(shared.location, result.error.message) : null;
      return explained && !result.ok
        ? { ok: false, error: { code: 'not_readable', message: explained } }
        : result;
    },
    async start() {
      try {
        await openServices();
      } catch (error) {
        // A start that failed holds the data folder no longer: the next writer need not wait for it.
        await writerLock?.release();
        writerLock = null;
        throw error;
      }
    },
    async refreshReader() {
      await opened(index, 'index').refresh();
      await library.reload();
    },
    async catchUp() {
      await follower?.catchUp();
    },
    async dispose() {
      stopFollowing?.();
      updates.dispose();
      // Other apps' sessions end before the services they read from.
      await mcpSharing.dispose();
      await agent?.dispose();
      await embedding?.dispose();
      memory.stopWatching();
      await serverMemory.dispose();
      await models.dispose();
      await local.dispose();
      await retrieval.dispose();
      await ingestion?.dispose();
      await pool?.dispose();
      await pdfReaders.dispose();
      await library.dispose();
      await index?.dispose();
      await writerLock?.release();
      writerLock = null;
      await shared?.dispose();
      events.clear();
    },
  };
  const dispatch = createDispatcher(createCallHandlers(core));
  return core;
}

/** A reader on a data folder needs the library its writer made there; it never starts one. */
async function requireLibraryAt(dataDir: string, indexDir: string): Promise<void> {
  const found = await stat(indexDir).then(
    (info) => info.isDirectory(),
    () => false,
  );
  if (!found)
    throw new QuireError(
      'not_found',
      `There is no Quire library in ${dataDir} yet: open the Quire app (or run \`quire index <folder>\` ` +
        'with this --data-dir) to make one, then start this again.',
    );
}

/** A file's size and modification time, or "none": changes whenever its writer replaces it. */
async function fileMark(path: string): Promise<string> {
  return stat(path).then(
    (info) => `${info.size}:${info.mtimeMs}`,
    () => 'none',
  );
}
