import { z } from 'zod';

/** The jobs Quire gives to models. */
export const ModelRole = z.enum(['decide', 'answer', 'embed', 'pageEmbed', 'see']);
export type ModelRole = z.infer<typeof ModelRole>;

export const ProviderKind = z.enum(['ollama', 'openai', 'llama', 'onnx', 'builtin']);
export type ProviderKind = z.infer<typeof ProviderKind>;

export const RoleResolution = z.object({
  role: ModelRole,
  /** Null when no provider can serve the role. */
  provider: ProviderKind.nullable(),
  endpoint: z.string().nullable(),
  model: z.string().nullable(),
  /** Why this choice, or why nothing: shown to the user as is. */
  reason: z.string(),
});
export type RoleResolution = z.infer<typeof RoleResolution>;

export const DetectedServer = z.object({
  kind: ProviderKind,
  endpoint: z.string(),
  reachable: z.boolean(),
  models: z.array(z.string()),
  error: z.string().nullable(),
});
export type DetectedServer = z.infer<typeof DetectedServer>;

export const DownloadState = z.enum(['queued', 'downloading', 'paused', 'done', 'failed', 'cancelled']);

export const DownloadProgress = z.object({
  id: z.string(),
  model: z.string(),
  /** `file`: from a model host into the models folder; `ollama`: pulled into a running Ollama. */
  source: z.enum(['file', 'ollama']).default('file'),
  state: DownloadState,
  bytesDone: z.number().nonnegative(),
  bytesTotal: z.number().nonnegative().nullable(),
  bytesPerSecond: z.number().nonnegative(),
  etaSeconds: z.number().nonnegative().nullable(),
  error: z.string().nullable(),
});
export type DownloadProgress = z.infer<typeof DownloadProgress>;

export const MemoryEntry = z.object({
  id: z.string(),
  label: z.string(),
  roles: z.array(ModelRole),
  /** Whether the bytes are resident now or only planned. */
  loaded: z.boolean(),
  weightsBytes: z.number().nonnegative(),
  /** Working memory: a chat model's KV cache and compute buffers at the configured context, an embedder's activations. */
  kvCacheBytes: z.number().nonnegative(),
  /** The context (tokens) kvCacheBytes was computed for, when known. */
  contextSize: z.number().int().positive().optional(),
  /** Memory held by a server process rather than by Quire. */
  external: z.boolean(),
  /** False when a server holds the model but does not say how much memory it takes (shown as unknown). */
  sizeKnown: z.boolean().optional(),
  /** Part of weightsBytes the server keeps in GPU memory (Ollama's size_vram), when it says. */
  gpuBytes: z.number().nonnegative().optional(),
});
export type MemoryEntry = z.infer<typeof MemoryEntry>;

/** Something Quire runs that holds memory: its process, a host process, worker threads, a cache. */
export const MemoryHolding = z.object({
  id: z.string(),
  label: z.string(),
  kind: z.enum(['app', 'workers', 'ocr', 'host', 'cache']),
  bytes: z.number().nonnegative(),
  /** Measured: a process's resident memory or a cache's own count. Estimated: nothing to measure. */
  how: z.enum(['measured', 'estimated']),
  /** The holding whose measured figure already includes this one (worker threads share Quire's process). */
  partOf: z.string().optional(),
  /** Workers alive, for pools. */
  count: z.number().int().nonnegative().optional(),
});
export type MemoryHolding = z.infer<typeof MemoryHolding>;

export const MemoryBudget = z.object({
  totalBytes: z.number().nonnegative(),
  availableBytes: z.number().nonnegative(),
  unifiedMemory: z.boolean(),
  appHeadroomBytes: z.number().nonnegative(),
  entries: z.array(MemoryEntry),
  /** Bytes left for more models after entries and headroom; negative means over budget. */
  freeForModelsBytes: z.number(),
  /** Decisions taken to stay within budget, in words. */
  notes: z.array(z.string()),
  /** Who holds what now, models, workers and caches alike. */
  holders: z.array(MemoryHolding).optional(),
  /** Resident memory summed over Quire's processes (holdings not part of another). */
  heldBytes: z.number().nonnegative().optional(),
});
export type MemoryBudget = z.infer<typeof MemoryBudget>;

/** A local model file Quire will not load, and why (a header that lies about its size, a cut-off download). */
export const UnusableModelFile = z.object({
  path: z.string(),
  reason: z.string(),
});
export type UnusableModelFile = z.infer<typeof UnusableModelFile>;

export const ModelsStatus = z.object({
  roles: z.array(RoleResolution),
  servers: z.array(DetectedServer),
  downloads: z.array(DownloadProgress),
  memory: MemoryBudget,
  unusableFiles: z.array(UnusableModelFile).default([]),
});
export type ModelsStatus = z.infer<typeof ModelsStatus>;

/** The base URL of a model server: http or https only (never file:, data:, javascript: ...). */
export const ServerUrl = z
  .url({ protocol: /^https?$/, error: 'A server address must be an http:// or https:// URL.' })
  .max(500);

/** A model the user picked for a role: a served model's name (on one server, optionally) or a GGUF path. */
export const RoleChoice = z.object({
  model: z.string().min(1).max(500),
  endpoint: ServerUrl.optional(),
});
export type RoleChoice = z.infer<typeof RoleChoice>;

/** What the user chose in the models panel; persisted in the data folder. */
export const ModelSettings = z.object({
  roles: z.partialRecord(ModelRole, RoleChoice),
  /** Base URLs of model servers the user added, besides the ones found on this machine. */
  servers: z.array(ServerUrl).max(20),
  /** The user said "not now" to the first-run setup; the Models panel still offers it. */
  setupDismissed: z.boolean().default(false),
});
export type ModelSettings = z.infer<typeof ModelSettings>;

/** A file the setup would download: pinned, with its published size and sha256 (null when none is published). */
export const ProposedFile = z.object({
  fileName: z.string(),
  repository: z.string(),
  revision: z.string().nullable(),
  url: z.string(),
  sizeBytes: z.number().positive(),
  /** False when only a rounded size is published; the host's stated size is used at download. */
  sizeExact: z.boolean(),
  sha256: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .nullable(),
  present: z.boolean(),
});
export type ProposedFile = z.infer<typeof ProposedFile>;

/**
 * The roles the setup covers: the model roles, the reranker the search uses to re-order results, and
 * `ocr`, Tesseract's fast models for reading scanned pages.
 */
export const SetupRole = z.enum([...ModelRole.options, 'rerank', 'ocr']);
export type SetupRole = z.infer<typeof SetupRole>;

/** How the setup would serve one role, and why. */
export const RoleProposal = z.object({
  role: SetupRole,
  modelId: z.string(),
  label: z.string(),
  /** download: files from the model host; ollama: `ollama pull`; present: already on disk; server: already served. */
  source: z.enum(['download', 'ollama', 'present', 'server']),
  /** The Ollama model to pull, for source `ollama`. */
  ollamaModel: z.string().nullable(),
  /** The server's address, for sources `ollama` and `server`. */
  server: z.string().nullable(),
  files: z.array(ProposedFile),
  /** Small files fetched beside the weights (tokenizer, configs). */
  companionFiles: z.array(z.string()),
  downloadBytes: z.number().nonnegative(),
  /** Memory the model takes when loaded at Quire's default context; null when unknown. */
  memoryBytes: z.number().nonnegative().nullable(),
  licence: z.string(),
  /** One line with a published number and its source. */
  quality: z.string(),
  reason: z.string(),
  /** Whether this build can run it once it is there (false: downloaded now, used once the runtime lands). */
  runtimeReady: z.boolean(),
});
export type RoleProposal = z.infer<typeof RoleProposal>;

/** One model set for this machine, covering every role. */
export const SetupProposal = z.object({
  machine: z.object({
    totalMemoryBytes: z.number().nonnegative(),
    unifiedMemory: z.boolean(),
    appleSilicon: z.boolean(),
    acceleration: z.enum(['metal', 'cpu']),
    freeDiskBytes: z.number().nonnegative().nullable(),
    modelsDir: z.string(),
  }),
  found: z.object({
    servers: z.array(z.string()),
    ollamaModels: z.array(z.string()),
    modelFiles: z.array(z.string()),
  }),
  roles: z.array(RoleProposal),
  totals: z.object({
    downloadBytes: z.number().nonnegative(),
    /** The models that stay loaded (all but the vision model, which loads to read pages). */
    memoryBytes: z.number().nonnegative(),
    peakMemoryBytes: z.number().nonnegative(),
    fitsOnDisk: z.boolean().nullable(),
  }),
  notes: z.array(z.string()),
});
export type SetupProposal = z.infer<typeof SetupProposal>;
