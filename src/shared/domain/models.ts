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
  /** KV cache and compute buffers at the configured context. */
  kvCacheBytes: z.number().nonnegative(),
  /** The context (tokens) kvCacheBytes was computed for, when known. */
  contextSize: z.number().int().positive().optional(),
  /** Memory held by a server process rather than by Quire. */
  external: z.boolean(),
});
export type MemoryEntry = z.infer<typeof MemoryEntry>;

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
});
export type MemoryBudget = z.infer<typeof MemoryBudget>;

export const ModelsStatus = z.object({
  roles: z.array(RoleResolution),
  servers: z.array(DetectedServer),
  downloads: z.array(DownloadProgress),
  memory: MemoryBudget,
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
});
export type ModelSettings = z.infer<typeof ModelSettings>;
